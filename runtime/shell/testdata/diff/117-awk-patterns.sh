awk '/ERROR/' data/log.txt
awk '/ERROR/ {print $1, $4}' data/log.txt
awk '$2 == "INFO"' data/log.txt
awk '$3 ~ /^[a-z]+$/ && $2 != "INFO" {print NR": "$3}' data/log.txt
awk '/WARN/,/ERROR/' data/log.txt
awk 'NR == 2, NR == 3 {print "range", $0}' data/log.txt
awk 'NR % 2' data/numbers.txt
awk '!/^2024-01-01/ {n++} END {print n}' data/log.txt
