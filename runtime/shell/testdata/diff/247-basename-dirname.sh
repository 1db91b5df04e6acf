basename /a/b/c.txt; basename /a/b/c.txt .txt; basename -s .go src/main.go src/util.go
dirname /a/b/c.txt; dirname c.txt; dirname /a/
basename -a x/y z/w
