a=(one two three); echo ${#a[@]} ${a[1]}
a+=(four); echo ${a[@]}
echo ${a[@]:1:2}
for x in "${a[@]}"; do printf '[%s]' "$x"; done; echo
unset 'a[1]'; echo ${a[@]}; echo ${!a[@]}
declare -A m; m[k]=v; m[z]=w; echo ${m[k]} ${m[z]}
for k in $(echo "${!m[@]}" | tr ' ' '\n' | sort); do echo "$k=${m[$k]}"; done
