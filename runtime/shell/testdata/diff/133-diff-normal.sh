printf 'a\nb\nc\nd\n' > x.txt
printf 'a\nB\nc\nd\ne\n' > y.txt
diff x.txt y.txt; echo "status=$?"
printf 'one\ntwo\nthree\n' > p.txt
printf 'zero\none\nthree\n' > q.txt
diff p.txt q.txt; echo "status=$?"
diff q.txt p.txt
printf '' > empty.txt
diff empty.txt p.txt
diff p.txt empty.txt
