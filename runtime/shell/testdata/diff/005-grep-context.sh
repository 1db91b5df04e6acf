grep -n -A1 WARN data/log.txt
grep -B1 -n retry data/log.txt
grep -C1 'disk' data/log.txt
