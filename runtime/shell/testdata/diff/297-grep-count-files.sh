grep -c apple data/*.txt
grep -l apple data/*.txt
grep -L apple data/*.txt
grep -n '' notes/no-newline.txt
