printf 'ab\x00cd' > b1; printf 'ab\x01cd' > b2
cmp b1 b2; echo "rc=$?"
cmp -l b1 b2
cmp -b b1 b2
