mkdir src 2>/dev/null; echo "rc=$?"
mkdir -p src; echo "rc=$?"
mkdir a/b/c 2>/dev/null; echo "rc=$?"
