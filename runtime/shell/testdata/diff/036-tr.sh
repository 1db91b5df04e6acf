echo "Hello World" | tr 'a-z' 'A-Z'
echo "hello   world" | tr -s ' '
echo "a1b2c3" | tr -d '0-9'
echo "hello" | tr -d 'l'
cat data/words.txt | tr '\n' ' '; echo
echo "abc" | tr '[:lower:]' '[:upper:]'
