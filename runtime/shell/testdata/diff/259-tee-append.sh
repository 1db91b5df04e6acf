echo one | tee t.txt >/dev/null
echo two | tee -a t.txt
cat t.txt
echo x | tee a1 a2 > /dev/null; cat a1 a2
