awk 'BEGIN { print "ok" ' 2>/dev/null; echo "syntax=$?"
awk '{ print }' no-such-file 2>/dev/null; echo "missing=$?"
awk 'BEGIN { x = 0; print 1 / x }' 2>/dev/null; echo "divzero=$?"
echo ok | awk '{ print } END { exit 5 }'; echo "exit=$?"
