# needs: patch
seq 1 10 > orig; seq 1 10 | sed 's/^5$/five/' > new
diff -u orig new > p.patch
(echo 0; echo 00; seq 1 10) > shifted; patch shifted < p.patch; grep five shifted
patch -N shifted < p.patch; echo "rc=$?"
rm -f p.patch shifted.orig shifted.rej
