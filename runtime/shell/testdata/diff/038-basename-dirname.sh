basename /a/b/c.txt
basename /a/b/c.txt .txt
dirname /a/b/c.txt
dirname c.txt
basename -s .go src/main.go src/util.go
for f in src/*.go; do echo "$(basename "$f" .go)"; done
