printf 'a\nb' > n1.txt
printf 'a\nb\n' > n2.txt
diff n1.txt n2.txt; echo "status=$?"
diff -u --label n1 --label n2 n1.txt n2.txt
printf 'a\nc' > n3.txt
diff n1.txt n3.txt
diff -u --label n1 --label n3 n1.txt n3.txt
