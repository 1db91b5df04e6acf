declare -A m
m[k]=v; m[z]=w
echo "keys: ${!m[@]}"
echo "count: ${#m[@]}"
