sed -E 's/([a-z]+),([0-9]+)/\2:\1/' data/users.csv
sed 's/\(id\),\(name\)/\2=\1/' data/users.csv | head -1
echo "hello world" | sed 's/\(hello\) \(world\)/\2 \1/'
