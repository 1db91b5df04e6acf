awk -F, 'NR>1 {c[$4]++} END {for (k in c) print k, c[k]}' data/users.csv | sort
awk '{a[NR]=$0} END {for (i=NR; i>0; i--) print a[i]}' data/numbers.txt
awk 'BEGIN {split("a:b:c", p, ":"); print p[3], length(p)}'
awk 'BEGIN {printf "%5.2f|%-5s|%05d\n", 3.14159, "ab", 42}'
awk '{gsub(/a/, "A"); print}' data/words.txt | head -3
