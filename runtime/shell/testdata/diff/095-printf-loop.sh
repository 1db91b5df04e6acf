tail -n +2 data/users.csv | while IFS=, read -r id name age city; do printf '%-6s|%3s|\n' "$name" "$age"; done
printf '%5.1f%%\n' 42.25
printf '%b\n' 'a\tb'
printf '%q\n' "it's"
printf -v out '%04d' 42; echo $out
