export FOO=bar
env | grep '^FOO='
FOO=baz env | grep '^FOO='
printenv FOO
unset FOO
printenv FOO || echo unset
