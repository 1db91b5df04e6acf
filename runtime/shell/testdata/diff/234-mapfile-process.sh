mapfile -t lines < data/log.txt
echo "${#lines[@]}"; echo "${lines[-1]}"
for l in "${lines[@]}"; do [[ $l == *ERROR* ]] && echo "E: ${l##* }"; done
sort -n data/numbers.txt | { readarray -t nums; echo "${#nums[@]} ${nums[0]}"; }
