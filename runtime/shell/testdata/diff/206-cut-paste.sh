cut -d, -f2 data/users.csv
cut -d, -f1,3- data/users.csv
cut -c1-4 data/log.txt
paste -d: data/numbers.txt data/words.txt
paste -s -d, data/numbers.txt
cut -d, -f2 data/users.csv | paste -sd' '
