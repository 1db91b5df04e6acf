cp -r src src2
echo "// new" >> src2/util.go
rm src2/lib/math.ts
echo "extra" > src2/extra.txt
diff -r src src2; echo "status=$?"
diff -rq src src2; echo "status=$?"
diff -q src/main.go src2/main.go; echo "status=$?"
diff -q src/util.go src2/util.go; echo "status=$?"
diff src src2; echo "status=$?"
