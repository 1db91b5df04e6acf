while IFS=, read -r id name age city; do
  [ "$id" = id ] && continue
  echo "$name is $age in $city"
done < data/users.csv
