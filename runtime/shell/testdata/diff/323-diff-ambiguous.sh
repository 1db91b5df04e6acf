# changes that could sit at more than one place: GNU diff slides them down
printf 'a\nb\na\n' > s1.txt
printf 'a\n' > s2.txt
diff s1.txt s2.txt; echo "status=$?"
diff -u --label s1 --label s2 s1.txt s2.txt
printf 'x\nA\ny\nx\nB\ny\n' > s3.txt
printf 'x\nB\ny\n' > s4.txt
diff s3.txt s4.txt
diff -U1 --label s3 --label s4 s3.txt s4.txt
printf 'k\nk\nk\n' > s5.txt
printf 'k\nk\nk\nk\nk\n' > s6.txt
diff s5.txt s6.txt
diff -u --label s5 --label s6 s6.txt s5.txt
printf 'A\nk\nB\nk\n' > s7.txt
printf 'K\nk\nB\nk\nk\n' > s8.txt
diff -i s7.txt s8.txt
