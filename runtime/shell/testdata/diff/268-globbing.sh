echo src/*.go
echo data/[nw]*.txt
echo src/**/*.ts
shopt -s nullglob; echo none*; shopt -u nullglob
echo *.nomatch
ls -d .h*
shopt -s dotglob; echo .hid*; shopt -u dotglob
