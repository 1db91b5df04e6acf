awk '$0 ~ "an"' data/words.txt
re='^[bc]'; awk -v re="$re" '$0 ~ re' data/words.txt
awk '/^(apple|date)$/ { print "fruit:", $0 }' data/words.txt
awk '/[[:digit:]]{4}-[[:digit:]]{2}/ { n++ } END { print n }' data/log.txt
awk '$2 !~ /INFO|WARN/' data/log.txt
awk '/\.go$/' <<'IN'
main.go
main.ts
x.go.bak
IN
awk 'BEGIN { s = "a+b"; if (s ~ /a\+b/) print "literal plus" }'
