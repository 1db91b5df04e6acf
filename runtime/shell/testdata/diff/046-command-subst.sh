n=$(wc -l < data/words.txt)
echo "lines: $n"
echo "files: $(ls src | wc -l)"
first=`head -1 data/words.txt`
echo $first
x=$(echo $(echo nested))
echo $x
