rm nosuch
echo "rc=$?"
rm -f nosuch
echo "rc=$?"
rm src 2>/dev/null
echo "rc=$?"
rmdir src 2>/dev/null
echo "rc=$?"
