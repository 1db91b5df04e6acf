# The DEBUG trap runs before each simple command (not inside functions
# without set -T), with $LINENO the command's and $? unchanged; the RETURN
# trap runs as a function returns; trap lists them.
f() { echo "in f"; return 3; }
trap 'echo "  [$LINENO]"' DEBUG
echo one
x=1
(( x++ ))
[[ $x == 2 ]] && echo two
f; echo "f=$?"
trap - DEBUG
trap 'echo "returned from f"' RETURN
f
trap
trap - RETURN
echo done
