sed 's/apple/APPLE/' data/words.txt | diff data/words.txt -; echo "status=$?"
sed 's/apple/APPLE/' data/words.txt | diff -i data/words.txt - && echo "same ignoring case"
printf 'a  b\nc\n' > w1.txt
printf 'a b\nc \n' > w2.txt
diff w1.txt w2.txt > /dev/null; echo "plain=$?"
diff -b w1.txt w2.txt; echo "b=$?"
diff -w w1.txt w2.txt; echo "w=$?"
