ln -s README.md link.md; readlink link.md; cat link.md | head -1
ln -sf data/words.txt link.md; readlink link.md
readlink -f link.md | sed 's|.*/||'
ln -s nowhere dangling; [ -L dangling ] && echo link; [ -e dangling ] || echo broken
realpath --relative-to=src data/words.txt
