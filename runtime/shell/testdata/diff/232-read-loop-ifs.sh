printf 'a,,c\n' | { IFS=, read -r x y z; echo "[$x][$y][$z]"; }
printf 'a,b,\n' | { IFS=, read -ra arr; echo "${#arr[@]}"; }
printf ' lead, trail \n' | { IFS=, read -r p q; echo "[$p][$q]"; }
printf '/usr/local/bin\n' | { IFS=/ read -ra parts; echo "${#parts[@]} [${parts[0]}] ${parts[2]}"; }
printf 'a b c d\n' | { read -r first rest; echo "[$first][$rest]"; }
printf 'x:y:z\n' | { IFS=: read -r a b; echo "[$a][$b]"; }
printf '  spaced   out  \n' | { read -r a b; echo "[$a][$b]"; }
printf 'k = v\n' | { IFS==' ' read -r k v; echo "[$k][$v]"; }
