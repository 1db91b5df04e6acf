echo hi | tee t1.txt t2.txt
echo more | tee -a t1.txt > /dev/null
cat t1.txt t2.txt
