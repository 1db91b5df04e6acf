sed -n '/WARN/,/retry/p' data/log.txt
sed '1d;$d' data/words.txt
sed -n '$p' data/words.txt
sed '2q' data/log.txt
sed -n '1~2p' data/numbers.txt
sed '/ERROR/s/2024/YEAR/' data/log.txt
