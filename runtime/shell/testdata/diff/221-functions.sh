greet() { echo "hi $1"; return 3; }
greet bob; echo "rc=$?"
count() { local n=0; for x in "$@"; do n=$((n+1)); done; echo $n; }
count a b c
f() { echo "args: $#"; shift; echo "after shift: $*"; }
f 1 2 3
rec() { [ $1 -le 0 ] && return; echo $1; rec $(( $1 - 1 )); }; rec 3
