base32 data/users.csv | base32 -d | diff - data/users.csv && echo roundtrip
printf 'a' | base32; printf 'ab' | base32; printf 'abc' | base32; printf 'abcd' | base32; printf 'abcde' | base32
base32 -w 0 README.md; echo
echo 'not base32!!' | base32 -d 2>/dev/null; echo "bad: $?"
