# needs: tree
tree
tree src
tree -L 1
tree -d
tree -a -L 1 --noreport
tree -f src/lib
tree -I '*.go' src
tree -P '*.ts' src
tree --dirsfirst -F -L 2
ln -s src srclink; ln -s README.md readme; tree -L 1
tree nosuch; echo "missing: $?"
