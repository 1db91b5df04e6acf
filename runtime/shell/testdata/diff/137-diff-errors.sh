diff README.md no-such-file 2>/dev/null; echo "status=$?"
diff no-such-file README.md 2>/dev/null; echo "status=$?"
diff README.md 2>/dev/null; echo "status=$?"
diff -N README.md no-such-file | tail -n +3; echo "status=$?"
