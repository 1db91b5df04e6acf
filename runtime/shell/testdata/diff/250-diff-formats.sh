printf 'a\nb\nc\n' > x; printf 'a\nB\nc\nd\n' > y
diff x y; echo "rc=$?"
diff -q x y; echo "rc=$?"
diff -s x x
diff -u x y | tail -n +3
diff -i x y | head -2
