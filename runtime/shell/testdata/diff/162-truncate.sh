echo "hello world" > f
truncate -s 5 f; cat f; echo
truncate -s +3 f; od -c f
truncate -s 0 f; wc -c f
truncate -s 10 new; wc -c new
truncate -c -s 4 absent; ls absent 2>&1
echo abcdef > g; truncate -s -2 g; cat g; echo
truncate -r README.md g; wc -c < g
truncate -s '<3' g; wc -c < g
truncate -s 1K k; wc -c < k
truncate f; echo "none: $?"
