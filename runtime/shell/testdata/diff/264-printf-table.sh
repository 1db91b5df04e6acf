printf '%-6s|%4s\n' name age
tail -n +2 data/users.csv | while IFS=, read -r id n a c; do printf '%-6s|%4d\n' "$n" "$a"; done
