cp README.md copy.md
diff README.md copy.md; echo "status=$?"
diff -s README.md copy.md; echo "status=$?"
diff -u README.md copy.md && echo "same"
cp -r data data2
diff -r data data2 && echo "dirs same"
if diff -q README.md data/log.txt >/dev/null; then echo same; else echo different; fi
