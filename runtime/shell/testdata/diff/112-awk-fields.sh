awk -F, '{print $2}' data/users.csv
awk -F, 'NR > 1 {print $2, $3}' data/users.csv
awk -F',' -v OFS='\t' 'NR > 1 {print $1, $2, $4}' data/users.csv
awk '{print NF": "$0}' data/log.txt
awk '{print $NF, $(NF-1)}' data/log.txt
