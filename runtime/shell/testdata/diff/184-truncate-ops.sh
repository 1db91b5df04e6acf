printf '0123456789' > f
truncate -s 4 f; cat f; echo
truncate -s +4 f; wc -c < f
truncate -s '>20' f; wc -c < f
truncate -s '/8' f; wc -c < f
truncate -s '%10' f; wc -c < f
truncate -s '<5' f; wc -c < f
truncate -s 0 data/log.txt; wc -c < data/log.txt
truncate -s 2 -c missing; ls missing 2>/dev/null || echo "not created"
