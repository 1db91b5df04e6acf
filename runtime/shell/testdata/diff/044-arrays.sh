arr=(one two three)
echo ${arr[1]} ${#arr[@]}
arr+=(four)
for x in "${arr[@]}"; do echo "- $x"; done
declare -A m
m[a]=1; m[b]=2
echo ${m[a]} ${m[b]}
files=(src/*.go)
echo ${#files[@]}
