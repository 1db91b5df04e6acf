for f in data/*.txt; do
  echo "$f: $(wc -l < "$f")"
done
i=0
while [ $i -lt 5 ]; do i=$((i+1)); done
echo "i=$i"
until [ $i -le 0 ]; do i=$((i-2)); done
echo "i=$i"
