awk -F, 'NR > 1 {s += $3; n++} END {print "total", s; print "avg", s / n; printf "avg=%.2f\n", s / n}' data/users.csv
awk '{s += $1} END {print s, NR, s / NR}' data/numbers.txt
awk 'BEGIN {max = -1} $1 > max {max = $1} END {print "max:", max}' data/numbers.txt
awk '{ if (min == "" || $1 < min) min = $1 } END { print "min:", min }' data/numbers.txt
