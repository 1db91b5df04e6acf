x=$(printf 'a\nb\n\n\n'); echo "[$x]"
y="$(ls src)"; echo "$y" | wc -l
z=$(cat notes/empty.txt); echo "[$z]"
n=$(wc -l < data/words.txt); echo $((n * 2))
