for w in $(sort -u data/words.txt); do
  echo "$w" >> unique.txt
done
cat unique.txt
