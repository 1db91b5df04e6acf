sleep 0.1 & p=$!; wait $p; echo "waited $?"
(echo one; sleep 0.05; echo two) > bg.txt & wait; cat bg.txt
for i in 1 2 3; do echo "job $i" > "j$i.txt" & done; wait; cat j1.txt j2.txt j3.txt
