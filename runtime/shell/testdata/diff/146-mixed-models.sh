cut -d, -f4 data/users.csv | tail -n +2 | awk '{c[$1]++} END {for (k in c) print c[k], k}' | sort -rn
grep -h TODO -r src | awk '{$1 = $1; print}' | sort
sed 's/INFO/info/' data/log.txt > log2.txt
diff -u --label before --label after data/log.txt log2.txt | grep '^[-+][^-+]'
awk -F, 'NR > 1 && $3 >= 30 {print $2}' data/users.csv | tr a-z A-Z | paste -sd, -
ls src | awk '{n++} END {print n " entries"}'
wc -l data/*.txt | awk '$2 != "total" {print $2, $1}' | sort
