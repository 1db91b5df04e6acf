for f in data/*.txt; do cksum "$f"; done
sum data/*.txt
b2sum -l 128 README.md data/words.txt
cksum -a sha1 README.md; cksum -a sha512 --untagged README.md | cut -c1-20
b2sum --tag README.md | cut -c1-40
echo -n "" | b2sum
