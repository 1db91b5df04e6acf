check() { [ -f "$1" ] || { echo "missing $1"; return 1; }; echo "ok $1"; }
check README.md
check nosuch
echo "rc=$?"
