cp data/log.txt l.txt
truncate -s 22 l.txt; cat l.txt
truncate -s +0 l.txt; wc -c < l.txt
