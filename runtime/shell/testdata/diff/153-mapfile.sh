printf '1\n2\n3\n' > n.txt
mapfile -t arr < n.txt; echo "${#arr[@]} ${arr[2]}"
readarray lines < n.txt; printf '<%s>' "${lines[@]}"; echo
mapfile -t -n 2 two < n.txt; echo "${two[@]}"
mapfile -t -s 1 skip < n.txt; echo "${skip[@]}"
printf 'a,b,c' | { mapfile -t -d , f; echo "${#f[@]} ${f[2]}"; }
mapfile -t empty < /dev/null; echo "${#empty[@]}"
