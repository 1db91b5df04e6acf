sort -k2 data/log.txt
sort -k3,3 -k1,1 data/log.txt
printf 'b 2\na 10\nc 1\n' | sort -k2n
