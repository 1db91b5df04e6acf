for i in 1 2 3; do echo $i; done
for ((i=0; i<3; i++)); do printf '%d ' $i; done; echo
n=0; until [ $n -ge 3 ]; do n=$((n+1)); done; echo $n
for f in data/*.txt; do echo "${f##*/}"; done
while read -r line; do echo "> $line"; done < data/numbers.txt | head -3
for i in 1 2 3 4 5; do [ $i = 2 ] && continue; [ $i = 4 ] && break; echo $i; done
