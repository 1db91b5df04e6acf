# needs: tree
tree -L 2 src
tree -a notes
tree -d -L 1
tree -f -L 1 data
tree --noreport -I 'data|notes'
tree -P '*.go' --noreport src
mkdir -p empty/one/two; tree empty
