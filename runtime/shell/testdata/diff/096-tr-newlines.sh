tr ',' '\n' < data/users.csv | head -5
echo "a:b:c" | tr ':' '\n' | sort -r
