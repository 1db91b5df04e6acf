grep nosuchthing data/words.txt
echo "status=$?"
grep x nosuchfile 2>/dev/null
echo "status=$?"
