grep -q apple data/words.txt
echo $?
grep -q zzz data/words.txt
echo $?
if grep -q banana data/words.txt; then echo found; fi
