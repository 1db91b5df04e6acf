awk -F, 'NR>1 {sum[$4]+=$3; n[$4]++} END {for (c in sum) printf "%s %.1f\n", c, sum[c]/n[c]}' data/users.csv | sort
awk 'END {print NR}' data/*.txt
awk 'FNR==1 {print FILENAME}' data/words.txt data/numbers.txt
