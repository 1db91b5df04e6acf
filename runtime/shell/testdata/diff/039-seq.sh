seq 5
seq 2 5
seq 0 3 10
seq -s, 1 5
seq -w 8 11
seq 5 -1 1
