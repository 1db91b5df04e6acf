true; echo $?
false; echo $?
ls nosuchdir 2>/dev/null; echo $?
(exit 42); echo $?
cat nosuch 2>/dev/null || echo "fallback"
test -f README.md && echo "exists"
