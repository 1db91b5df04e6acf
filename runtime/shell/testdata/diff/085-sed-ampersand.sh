sed 's/[0-9]\+/(&)/' data/numbers.txt | head -3
echo "hello" | sed 's/.*/"&"/'
