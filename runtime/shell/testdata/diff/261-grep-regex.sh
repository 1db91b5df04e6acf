grep -E '^(apple|date)$' data/words.txt
grep -c '^[a-c]' data/words.txt
grep -E '[0-9]{4}' data/log.txt | head -1
grep -x banana data/words.txt | head -1
grep -m 2 apple data/words.txt
grep -h TODO README.md src/main.go
grep -q ERROR data/log.txt && echo found
