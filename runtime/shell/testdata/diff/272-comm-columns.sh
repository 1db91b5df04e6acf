printf 'a\nc\ne\n' > l; printf 'b\nc\nd\n' > r
comm l r | cat -A
comm -1 l r; comm -2 l r
comm --output-delimiter='|' l r
