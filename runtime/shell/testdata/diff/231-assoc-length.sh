declare -A m
m[k]=v; m[z]=w
echo "keys: $(printf '%s\n' "${!m[@]}" | sort | paste -sd' ')"
echo "count: ${#m[@]} ${#m[*]}"
f() { local -A c; c[a]=1; c[b]=2; c[c]=3; echo "local: ${#c[@]}"; }; f
declare -A e; echo "empty: ${#e[@]}"
i=0; while (( i < ${#m[@]} )); do i=$((i+1)); done; echo "loop: $i"
idx=(a b c); echo "indexed: ${#idx[@]}"
