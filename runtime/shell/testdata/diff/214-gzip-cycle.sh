cp README.md r.md; gzip r.md; ls r.md*
gunzip r.md.gz; cat r.md | head -1
gzip -c data/words.txt | gunzip | wc -l
gzip -k data/numbers.txt; ls data/numbers.txt*
zcat data/numbers.txt.gz | head -2
gzip -t data/numbers.txt.gz && echo ok
