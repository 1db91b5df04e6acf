{ echo out; echo err >&2; } 2>/dev/null
{ echo a; echo b; } > grouped.txt
cat grouped.txt
