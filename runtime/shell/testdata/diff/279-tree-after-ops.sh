# needs: tree
mkdir -p proj/{src,test,docs}; touch proj/src/a.go proj/test/a_test.go proj/docs/README
tree proj
tree -L 1 proj
rm -r proj/docs; tree --noreport proj
