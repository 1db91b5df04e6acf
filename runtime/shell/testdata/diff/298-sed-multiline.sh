sed -n '$p' data/log.txt
sed '$!N;s/\n/ | /' data/numbers.txt
sed '1~2d' data/numbers.txt 2>/dev/null | head -3
sed -e :a -e '$!N;s/\n/,/;ta' data/words.txt
