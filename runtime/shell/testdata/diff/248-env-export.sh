export FOO=bar; env | grep '^FOO='
FOO=baz bash -c 'echo $FOO'; echo $FOO
unset FOO; echo "[${FOO-unset}]"
env -u FOO printenv FOO || echo removed
printenv FOO || echo "not set"
