wc data/words.txt
wc -l data/*.txt
wc -w README.md
wc -c < README.md
wc -L data/words.txt
printf 'no newline' | wc -l
