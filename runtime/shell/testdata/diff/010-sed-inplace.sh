sed -i 's/TODO/DONE/g' README.md src/main.go
cat README.md
grep -c DONE src/main.go
