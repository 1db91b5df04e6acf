printf 'a\nb\nc\n' > x; printf 'a\nB\nc\n' > y; cp x z
cmp x z; echo "same: $?"
cmp x y; echo "diff: $?"
cmp -s x y; echo "silent: $?"
cmp -l x y
cmp -b x y
printf 'a\nb\n' > short; cmp x short 2>&1; echo "eof: $?"
cmp -n 2 x y; echo "n2: $?"
cmp -i 2 x y; echo "skip: $?"
sort data/words.txt | uniq > w1; printf 'apple\nfig\ngrape\n' > w2
comm w1 w2
comm -12 w1 w2
comm -23 w1 w2
comm -3 --output-delimiter=, w1 w2
comm --total w1 w2
