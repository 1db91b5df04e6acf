factor 2 3 4 5 6 7 8 9 10
factor 1024 999 1000001
seq 20 25 | factor
factor 9999999967
factor 0 1
factor abc 2>/dev/null; echo "bad: $?"
