# PIPESTATUS holds every stage's status of the last pipeline (a simple
# command is a pipeline of one; a compound command leaves its inner one's),
# before ! applies; $_ is the last argument of the last simple command.
if false; then :; fi; echo "if: ${PIPESTATUS[@]}"
{ false; }; echo "group: ${PIPESTATUS[@]}"
false | true | (exit 3); echo "three: ${PIPESTATUS[@]}"
! false | true; echo "negated: ${PIPESTATUS[@]} $?"
x=1; echo "assign: ${PIPESTATUS[@]}"
f() { return 4; }; f; echo "func: ${PIPESTATUS[@]}"
(exit 2) | { false | true; }; echo "nested: ${PIPESTATUS[@]}"
set -o pipefail; (exit 5) | true; echo "pipefail: ${PIPESTATUS[*]} $?"; set +o pipefail
for i in 1 2; do (exit $i) | cat; done; echo "loop: ${PIPESTATUS[1]} ${#PIPESTATUS[@]}"
true | (exit 7) | false; s=("${PIPESTATUS[@]}"); echo "saved: ${s[*]}"
echo one two three; echo "last: $_"
touch f1; ls f1 > /dev/null; echo "last: $_"
