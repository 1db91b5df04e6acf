cat notes/empty.txt
wc -l notes/empty.txt
sort notes/empty.txt
grep x notes/empty.txt; echo "rc=$?"
head notes/empty.txt
