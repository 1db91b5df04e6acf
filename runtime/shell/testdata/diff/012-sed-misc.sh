sed -e 's/a/A/' -e 's/e/E/' data/words.txt
sed '1i\
header' data/numbers.txt | head -3
sed '$a footer' data/numbers.txt | tail -2
sed 'y/abc/ABC/' data/words.txt
sed = data/words.txt | head -4
sed -n '/apple/=' data/words.txt
