sort -n data/numbers.txt > sorted
mapfile -t nums < sorted; echo "min=${nums[0]} max=${nums[-1]}"
mapfile -t -n 3 top < sorted; echo "${top[*]}"
