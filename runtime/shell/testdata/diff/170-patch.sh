# needs: patch
cp src/util.go old.go
sed 's/a + b/b + a/; s/a - b/a - b - 0/' old.go > new.go
diff -u old.go new.go > fix.patch
patch old.go < fix.patch; echo "applied: $?"
cmp old.go new.go && echo same
patch -R old.go < fix.patch; cmp old.go src/util.go && echo reverted
patch --dry-run old.go fix.patch; cmp old.go src/util.go && echo untouched
mkdir -p a b; printf 'one\ntwo\nthree\n' > a/f.txt; printf 'one\n2\nthree\nfour\n' > b/f.txt
diff -u a/f.txt b/f.txt > p1.patch
cp -r a work; cd work; patch -p1 < ../p1.patch; cat f.txt; cd ..
printf 'zero\nzero\none\ntwo\nthree\n' > shifted.txt; patch shifted.txt < p1.patch; cat shifted.txt
printf "x\ny\n" > other.txt; patch other.txt < p1.patch; echo "failed: $?"; tail -n +3 other.txt.rej; head -2 other.txt.rej | cut -f1
diff -u /dev/null b/f.txt > create.patch; rm -rf c; mkdir c; cd c; patch -p1 < ../create.patch; cat f.txt; cd ..
patch -s -o out.txt a/f.txt p1.patch; cat out.txt
rm -f other.txt.rej
rm -f *.patch *.orig
