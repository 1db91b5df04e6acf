touch -t 202001010101 a b c; stat -c '%y %n' a b c
touch -d '2020-01-01 01:01:01' d; [ a -ot d ] || echo "not older"
