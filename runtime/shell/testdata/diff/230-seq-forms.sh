seq 3; seq 2 4; seq 1 2 9; seq 5 -1 3
seq -s , 4
seq -w 8 11
seq -f '%03g' 3
seq 0.5 0.5 2
