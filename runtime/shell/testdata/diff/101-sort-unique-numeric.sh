sort -nu data/numbers.txt
sort -n data/numbers.txt | uniq | tail -1
