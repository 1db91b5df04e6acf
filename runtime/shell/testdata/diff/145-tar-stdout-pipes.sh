tar cf - src/lib | tar tf - | sort
mkdir copy
tar cf - data | (cd copy && tar xf -)
diff -r data copy/data && echo "copied"
tar czf d.tgz data
tar xzOf d.tgz data/numbers.txt | sort -n | tail -2
tar xOf d.tgz data/words.txt | wc -l
tar tzvf d.tgz > /dev/null && echo "verbose ok"
