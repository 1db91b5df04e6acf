awk '{ print FILENAME, FNR, NR }' data/numbers.txt data/words.txt | tail -4
awk 'FNR == 1 { print "==", FILENAME }' data/*.txt
awk 'NR == FNR { keep[$0]; next } $0 in keep' data/words.txt - <<'IN'
apple
kiwi
date
IN
awk '{ print x, $0 }' x=1 data/numbers.txt x=2 data/words.txt | head -9 | tail -3
