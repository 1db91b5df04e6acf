ls
ls -a | head -4
ls -1 src
ls -d src data
ls -R src
ls -S data | head -2
ls nosuch 2>/dev/null; echo "rc=$?"
