echo one > out.txt
echo two >> out.txt
cat out.txt
echo err 1>&2 2>/dev/null
ls nosuch 2> err.txt
wc -l < err.txt
echo both &> both.txt
cat both.txt
