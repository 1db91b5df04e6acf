ls
ls -a
ls -A
ls -1 src
ls src data
ls -d src/*
ls -p
