grep -n -A1 ERROR data/log.txt
grep -B1 -c WARN data/log.txt
grep -C1 retry data/log.txt
grep -o '[0-9]\{4\}-[0-9]\{2\}' data/log.txt | sort -u
grep -w apple data/words.txt | wc -l
grep -v -e apple -e banana data/words.txt
