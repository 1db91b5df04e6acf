# GNU cmp names the position a "byte" in a multibyte locale and a "char"
# in the C locale.
printf 'abc\nxyz\n' > a; printf 'abc\nxyw\n' > b
cmp a b; echo "rc=$?"
LC_ALL=C.UTF-8 cmp a b; echo "rc=$?"
LC_ALL=C cmp a b
LC_ALL=C.UTF-8 cmp -b a b
