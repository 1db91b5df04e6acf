touch new.txt
ls new.txt
touch README.md
cat README.md | head -1
touch -c nosuch
ls nosuch 2>/dev/null || echo "not created"
