for f in $(grep -rl 'func add' src); do
  sed -i 's/func add/func plus/' "$f"
done
grep -rn 'plus' src | sort
