cp -r src new
sed -i 's/hello/hi/' new/main.go
echo "export const e = 2.718;" >> new/lib/math.ts
diff -ru src new | grep -v '^[-+][-+][-+] '; echo "status=$?"
diff -r -u src new | grep -c '^@@'
