cat data/words.txt | sort | uniq -c | sort -rn | head -3
