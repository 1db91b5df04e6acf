shuf data/words.txt | sort | uniq -c | sort -k2
shuf -n 2 data/numbers.txt | wc -l
