for a in x y; do
  for b in 1 2; do
    echo "$a$b"
  done
done | paste -sd, - 2>/dev/null || true
