awk -F, 'NR > 1 {print $2 > ($4 ".txt")}' data/users.csv
cat Paris.txt Berlin.txt Rome.txt
awk '{print $1 >> "appended.txt"}' data/numbers.txt
awk 'END {print NR >> "appended.txt"}' data/numbers.txt
cat appended.txt
awk 'BEGIN {while ((getline line < "data/words.txt") > 0) n++; close("data/words.txt"); print n, line}'
awk 'BEGIN {print "x" > "out.txt"; print "y" > "out.txt"; close("out.txt"); getline l < "out.txt"; print l}'
cat out.txt
