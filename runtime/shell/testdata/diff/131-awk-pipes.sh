awk '{ print $1 | "sort -n" } END { close("sort -n"); print "sorted" }' data/numbers.txt
awk -F, 'NR > 1 { print $4 | "sort | uniq -c" }' data/users.csv
awk 'BEGIN { "echo hello" | getline x; print "got", x; close("echo hello") }'
awk 'BEGIN { while (("cat data/words.txt" | getline w) > 0) n++; print n }'
awk 'BEGIN { r = system("test -f README.md"); print "status", r }'
awk 'BEGIN { print "to stderr" > "/dev/stderr"; print "to stdout" }'
