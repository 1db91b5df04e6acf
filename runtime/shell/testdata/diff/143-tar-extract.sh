tar czf src.tgz src
mkdir out
tar xzf src.tgz -C out
find out | sort
diff -r src out/src && echo "identical"
mkdir out2 && cd out2 && tar -xf ../src.tgz && cd ..
cat out2/src/lib/math.ts
tar -xzf src.tgz -C out2 src/main.go
tar xzf src.tgz -C out2 no/such/member 2>/dev/null; echo "status=$?"
