awk -F, 'NR>1 {print $2, $3}' data/users.csv
awk -F, 'NR>1 {s+=$3} END {print "total", s, "avg", s/(NR-1)}' data/users.csv
awk -F, -v OFS=';' 'NR>1 {$1=$1; print}' data/users.csv
awk '{print NR": "$0}' data/numbers.txt | tail -2
awk 'length($0) > 5' data/words.txt
