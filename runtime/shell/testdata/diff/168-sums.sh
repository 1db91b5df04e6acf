sum data/words.txt; sum -s data/words.txt README.md
cksum data/words.txt README.md; cksum < data/words.txt
printf '' | cksum
b2sum data/words.txt; b2sum -l 256 README.md
b2sum data/words.txt > sums; b2sum -c sums
cksum -a sha256 README.md; cksum -a md5 --untagged README.md
cksum -a blake2b -l 128 README.md
base32 README.md; base32 -w 20 data/words.txt
echo hello | base32 | base32 -d
echo 'NBSWY3DP!' | base32 -d -i; echo
head -c 1000 /dev/zero > z; b2sum z; cksum z; sum z
