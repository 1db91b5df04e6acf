seq 10 | shuf | sort -n | tr '\n' ' '; echo
shuf -i 1-5 | sort -n | tr '\n' ' '; echo
shuf -e a b c | sort | tr '\n' ' '; echo
seq 100 | shuf -n 3 | wc -l
shuf -n 5 -r -e x | sort | uniq -c
shuf -i 1-3 -n 10 | wc -l
shuf -o out.txt -e one two; sort out.txt; rm out.txt
