cmp README.md README.md && echo identical
cmp data/words.txt data/numbers.txt; echo "rc=$?"
cmp -s README.md data/words.txt || echo differ
head -c 10 README.md > part; cmp part README.md 2>&1; echo "rc=$?"
cmp -n 10 part README.md && echo "first 10 same"
printf 'abd' > abd; printf 'abc' | cmp - abd; echo "stdin: $?"
