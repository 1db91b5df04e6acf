echo "Hello World" | tr a-z A-Z
echo "Hello World" | tr -d aeiou
echo "a  b   c" | tr -s ' '
echo "abc123" | tr -cd '0-9'; echo
echo "hello" | tr 'a-y' 'b-z'
echo "a:b:c" | tr : '\n'
