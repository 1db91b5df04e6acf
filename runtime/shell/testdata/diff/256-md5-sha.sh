md5sum README.md; sha1sum README.md; sha256sum data/words.txt
sha256sum data/*.txt > sums.txt; sha256sum -c sums.txt
md5sum < README.md
echo -n | sha512sum | cut -c1-16
