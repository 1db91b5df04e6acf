sort -t, -k3n data/users.csv
sort -t, -k4,4 -k3nr data/users.csv
sort -n -r data/numbers.txt | head -3
sort -u data/words.txt
sort -c data/numbers.txt 2>&1; echo "rc=$?"
printf 'b 2\na 10\na 2\n' | sort -k1,1 -k2n
