count=0
for f in $(find . -type f | sort); do
  count=$((count+1))
done
echo "$count files"
