printf 'a b\nccc dd\n' | column -t
tac data/numbers.txt | head -2
rev <<< "stressed"
printf '1\n2\n3\n' | tac | paste -sd' '
