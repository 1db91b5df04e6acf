seq 5 | shuf -n 5 | sort -n | tr '\n' ,; echo
shuf -e one two three -n 2 | wc -l
shuf -i 10-20 | sort -n | head -3
shuf -n 0 -e a b; echo "zero: $?"
shuf -i 5-5
shuf -r -n 3 -i 7-7
