ln -s README.md link.md
cat link.md | head -1
readlink link.md
ln -s src srclink
ls srclink
