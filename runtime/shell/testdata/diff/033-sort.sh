sort data/numbers.txt
sort -n data/numbers.txt
sort -rn data/numbers.txt
sort -u data/words.txt
sort -t, -k3 -n data/users.csv
sort -t, -k4,4 -k1,1nr data/users.csv
