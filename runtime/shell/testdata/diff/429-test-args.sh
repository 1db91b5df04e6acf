# test and [ parse their arguments as bash's test.c: by count, then as an expression.
set -- -o; test $# -ne 0 -a "$1" != "--"; echo status=$?
test $# -ne 0 -a -o != "--"; echo status=$?
[ = ]; echo status=$?
[ ] ]; echo status=$?
[ '!' ]; echo status=$?
[ '(' ]; echo status=$?
[ '(' = ')' ]; echo status=$?
[ -f = -f ] && echo true
[ -z '>' ] || echo false
[ -z '>' -a 1 ]; echo st=$?
[ ! -z x ]; echo st=$?
[ a = b -o c = c ]; echo st=$?
[ \( a = a \) -a \( b = c \) ]; echo st=$?
[ -n ]; echo st=$?
[ x -eq 1 ] 2>/dev/null; echo st=$?
[ a b c ] 2>/dev/null; echo st=$?
[ -q x ] 2>/dev/null; echo st=$?
[ ]; echo st=$?
test; echo st=$?
[ 1 -lt 2 -a ! 3 -gt 4 ]; echo st=$?
[ "(" x ")" ]; echo st=$?
[ ! ! x ]; echo st=$?
[ a '<' b ]; echo st=$?
[ b '>' c ]; echo st=$?
