cut -d' ' -f2 data/log.txt | sort | uniq -c
grep ERROR data/log.txt | cut -d' ' -f1 | sort -u
grep -c INFO data/log.txt
