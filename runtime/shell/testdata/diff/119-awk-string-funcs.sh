awk '{split($1, d, "-"); print d[3] "/" d[2] "/" d[1]}' data/log.txt
awk 'BEGIN {n = split("a b  c", parts); print n, parts[1], parts[3]; n = split("x1y22z", q, /[0-9]+/); print n, q[1], q[2], q[3]}'
awk '{print substr($0, 1, 3), length($0), index($0, "an")}' data/words.txt
awk 'BEGIN {print substr("hello", 2), substr("hello", 0, 3), substr("hello", 4, 10) "|"}'
awk 'BEGIN {print toupper("MiXeD 123"), tolower("MiXeD 123")}'
awk 'BEGIN {if (match("foo123bar", /[0-9]+/)) print RSTART, RLENGTH, substr("foo123bar", RSTART, RLENGTH)}'
awk '{ if (match($0, /[A-Z]+/)) print substr($0, RSTART, RLENGTH) }' data/log.txt
