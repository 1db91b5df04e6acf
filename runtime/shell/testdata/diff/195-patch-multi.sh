# needs: patch
mkdir -p v1 v2; printf 'a\nb\nc\n' > v1/x; printf '1\n2\n' > v1/y
printf 'a\nB\nc\n' > v2/x; printf '1\n2\n3\n' > v2/y
diff -ru v1 v2 > multi.patch
cp -r v1 work && cd work && patch -p1 < ../multi.patch && cat x y && cd ..
cd work && patch -p1 -R < ../multi.patch && cat x y && cd ..
rm -f multi.patch
