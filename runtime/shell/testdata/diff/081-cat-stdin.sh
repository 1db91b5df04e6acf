echo piped | cat
echo piped | cat - README.md | head -2
cat < data/numbers.txt | head -1
