sed -n '2,4p' data/numbers.txt
sed '1d;$d' data/numbers.txt
sed -n '/WARN/,/retry/p' data/log.txt
sed '/^$/d' README.md
sed -e 's/apple/APPLE/2' data/words.txt | head -3
sed 's/\(a\)\(p\)/\2\1/g' data/words.txt | head -2
