awk -v name=world 'BEGIN {print "hello, " name}'
awk -v n=3 'NR <= n' data/words.txt
awk 'BEGIN {OFS = "-"} {$1 = $1; print}' data/log.txt
awk -F, 'BEGIN {OFS = ","} NR > 1 {$3 = $3 + 1; print}' data/users.csv
awk -v sep='\t' 'BEGIN {print "a" sep "b"}'
awk -F'\t' '{print NF}' data/log.txt
printf 'a:b:c\n1:2:3\n' | awk -F: -v OFS=: '{print $3, $1}'
awk 'BEGIN {ORS = ";"} {print $1} END {ORS = "\n"; print ""}' data/numbers.txt
