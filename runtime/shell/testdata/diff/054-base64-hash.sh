echo "hello" | base64
echo "aGVsbG8K" | base64 -d
sha256sum data/words.txt
md5sum data/words.txt data/numbers.txt
echo -n abc | sha1sum
