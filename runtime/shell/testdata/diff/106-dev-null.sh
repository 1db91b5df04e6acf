cat /dev/null
echo hidden > /dev/null
wc -c < /dev/null
