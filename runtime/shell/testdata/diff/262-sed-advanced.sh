sed -n 'p;n' data/numbers.txt
sed '=' data/words.txt | head -4
sed 'y/abc/ABC/' data/words.txt | head -2
sed -E 's/([0-9]+)-([0-9]+)-([0-9]+)/\3.\2.\1/' data/log.txt | head -2
sed '2q' data/log.txt
sed -n '/apple/{=;p}' data/words.txt
