head -n 2 data/log.txt
tail -n 2 data/log.txt
head -3 data/numbers.txt
tail -n +3 data/numbers.txt
head -c 10 README.md; echo
tail -c 5 data/words.txt
head -n -5 data/numbers.txt
