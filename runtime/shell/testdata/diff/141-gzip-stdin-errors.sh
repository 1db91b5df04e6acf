echo "hello gzip" | gzip | gunzip
printf 'line1\nline2\n' | gzip -c > s.gz
zcat s.gz
gzip no-such-file 2>/dev/null; echo "missing=$?"
gzip -k README.md
gzip -k README.md 2>/dev/null; echo "exists=$?"
gzip -kf README.md; echo "forced=$?"
echo "not gzip" > fake.gz
gunzip fake.gz 2>/dev/null; echo "bad=$?"
gzip -d README.md 2>/dev/null; echo "suffix=$?"
gzip -t README.md.gz && echo "test ok"
