set -e; true; echo "still here"; set +e
set -u; x=1; echo $x; set +u
f() { false; echo "after false"; }; f
set -- a b c; echo "$# $2"
IFS=:; set -- $(echo "p:q:r"); echo "$2"; unset IFS
