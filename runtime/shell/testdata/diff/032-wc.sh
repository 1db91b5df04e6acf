wc data/words.txt
wc -l data/*.txt
wc -w README.md
wc -c < README.md
cat data/words.txt | wc -l
