echo start
(echo bg; cat) & wait
f() { echo "job $1"; }
f 1 & wait
eval 'for i in 1 2 3; do echo "e$i"; done'
eval "x=\$(echo evald)"; echo "$x"
code='n=0; while [ $n -lt 3 ]; do n=$((n+1)); done; echo n=$n'
eval "$code"
echo done
