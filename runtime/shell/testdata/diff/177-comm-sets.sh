sort -u data/words.txt > a; printf 'banana\ncherry\nkiwi\n' > b
comm -12 a b
comm -13 a b
comm -23 a b
comm a b | cat -A
printf 'b\na\n' > unsorted; comm unsorted a 2>&1; echo "rc=$?"
comm --nocheck-order unsorted a; echo "rc=$?"
