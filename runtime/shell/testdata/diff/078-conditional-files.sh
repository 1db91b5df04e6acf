for f in README.md nosuch src; do
  if [ -f "$f" ]; then echo "$f file"
  elif [ -d "$f" ]; then echo "$f dir"
  else echo "$f none"
  fi
done
