# needs: patch
printf 'one\ntwo' > a.txt; printf 'one\nthree' > b.txt
diff -u a.txt b.txt > nl.patch
patch a.txt < nl.patch; od -c a.txt | tail -2
printf 'x\n' > c.txt; printf 'x\ny' > d.txt; diff -u c.txt d.txt > nl2.patch
patch c.txt < nl2.patch; od -c c.txt
rm -f *.patch
