grep -e apple -e date data/words.txt
grep -n -e INFO data/log.txt
grep -h TODO README.md src/main.go
grep -H TODO README.md
