grep -n TODO -r . | sort | while IFS=: read -r file line rest; do
  echo "$file@$line"
done
