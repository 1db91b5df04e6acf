awk 'BEGIN {FS=","} NR==1 {for (i=1; i<=NF; i++) h[i]=$i; next} {print h[2]"="$2}' data/users.csv
awk '{ n = split($0, c, ""); print n }' data/words.txt | sort -u
awk 'NR % 2 == 0' data/numbers.txt
awk '$1 > 5 {print; exit}' data/numbers.txt
awk 'BEGIN { while (i++ < 3) printf "%d ", i; print "" }'
awk -v n=3 'BEGIN { print n * 2 }'
