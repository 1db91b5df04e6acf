d=$(mktemp -d); [ -d "$d" ] && echo made-dir
f=$(mktemp); [ -f "$f" ] && echo made-file
rm -rf "$d" "$f"
