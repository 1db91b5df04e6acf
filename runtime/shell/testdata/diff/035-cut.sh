cut -d, -f2 data/users.csv
cut -d, -f1,3 data/users.csv
cut -c1-3 data/words.txt
cut -d' ' -f2- data/log.txt
