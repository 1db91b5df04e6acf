awk -F, 'NR > 1 {print $4}' data/users.csv | sort | uniq -c
awk '{print $2}' data/log.txt | sort | uniq -c | sort -rn
awk -F: '{print $1}' data/log.txt | sort -u
cat data/words.txt | awk '{print length($0), $0}' | sort -n | tail -3
