total=0; for n in $(cat data/numbers.txt); do total=$(echo "$total + $n" | bc); done; echo $total
avg=$(echo "scale=2; $total / $(wc -l < data/numbers.txt)" | bc); echo $avg
echo "$total > 100" | bc
