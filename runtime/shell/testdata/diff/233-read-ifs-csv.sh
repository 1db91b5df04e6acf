tail -n +2 data/users.csv | while IFS=, read -r id name age city; do echo "$name/$city"; done
IFS=, read -ra cols < data/users.csv; echo "${#cols[@]} ${cols[3]}"
read -r first < data/words.txt; echo "$first"
{ read -r a; read -r b; } < data/words.txt; echo "$a $b"
