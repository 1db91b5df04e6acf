awk -F, 'NR == 1 {printf "%-6s|%5s|%s\n", $2, $3, $4; next} {printf "%-6s|%5d|%s\n", $2, $3, $4}' data/users.csv
awk 'BEGIN {printf "%5.2f %e %g %x %o %c %s %%\n", 3.14159, 1234.5, 0.0001, 255, 8, 65, "str"}'
awk 'BEGIN {printf "%03d|%+d|% d|%-4d|%4s|%.2s\n", 7, 5, 3, 2, "ab", "abcdef"}'
awk 'BEGIN {x = sprintf("%s-%05.1f", "v", 2.5); print x, length(x)}'
awk '{printf "%s%s", (NR > 1 ? "," : ""), $1} END {print ""}' data/numbers.txt
