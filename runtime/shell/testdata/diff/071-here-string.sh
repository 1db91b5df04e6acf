read a b <<< "one two"
echo "$b $a"
wc -w <<< "a b c d"
grep -c o <<< "foo
bar
boo"
