cp data/words.txt w2.txt
mv w2.txt w3.txt
cp -r src src2
mv src2/lib src2/lib2
find src2 | sort
cp README.md data/
ls data
