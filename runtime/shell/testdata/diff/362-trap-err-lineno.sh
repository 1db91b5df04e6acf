# The ERR trap sees the failed command's $LINENO; functions do not inherit
# it unless set -E (errtrace); && / || lists and conditions do not run it.
trap 'echo "err line=$LINENO status=$?"' ERR
false
true && false || true
if false; then :; fi
f() {
  false
  echo "in f"
}
f
echo "-- errtrace"
set -E
f
set +E
g() { return 3; }
g
echo done
