awk 'BEGIN { for (i = 0; i < 10; i++) { if (i == 3) continue; if (i == 7) break; printf "%d ", i }; print "" }'
awk 'BEGIN { i = 5; while (i > 0) { printf "%d ", i; i -= 2 }; print ""; do { i++ } while (i < 3); print i }'
awk 'NR == 3 { next } { print NR, $0 }' data/words.txt
awk '{ print } NR == 2 { exit }' data/words.txt
awk 'BEGIN { exit 3 } END { print "end runs" }'; echo "status=$?"
awk '{ if ($1 > 10) print $1, "big"; else if ($1 > 5) print $1, "medium"; else print $1, "small" }' data/numbers.txt
awk 'END { exit NR > 5 }' data/numbers.txt; echo "status=$?"
