cut -d, -f2 --complement data/users.csv | head -2
cut -d, -f1 -s data/numbers.txt
echo "no delim" | cut -d, -f2
