awk '{gsub(/-/, "/", $1); print}' data/log.txt
awk '{n = gsub(/a/, "A"); print n, $0}' data/words.txt
awk '{sub(/^[0-9-]+ /, ""); print toupper(substr($0, 1, 1)) tolower(substr($0, 2))}' data/log.txt
awk 'BEGIN {s = "hello world"; gsub(/o/, "[&]", s); print s; t = "a.b.c"; gsub(/\./, "\\&", t); print t}'
awk '{gsub(/[aeiou]/, ""); print}' data/words.txt | head -3
