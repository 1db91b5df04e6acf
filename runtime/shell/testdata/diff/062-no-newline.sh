cat notes/no-newline.txt; echo
wc -l notes/no-newline.txt
tail -n 1 notes/no-newline.txt; echo
sed 's/line/LINE/' notes/no-newline.txt; echo
grep line notes/no-newline.txt
