for ext in go ts; do
  n=$(find . -name "*.$ext" | xargs cat | wc -l)
  echo "$ext $n"
done
