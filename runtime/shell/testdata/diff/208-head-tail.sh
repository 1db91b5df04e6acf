head -n 2 data/log.txt
head -c 20 README.md; echo
tail -n 2 data/log.txt
tail -n +4 data/numbers.txt
head -n -2 data/numbers.txt
tail -c 10 README.md
head -n 1 data/*.txt
