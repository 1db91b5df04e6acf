x=$(false); echo "st=$?"
y=$(exit 3) || echo "failed $?"
z=$(echo a; echo b); echo "$z"
f() { local v=$(echo loc); echo "$v"; v2=$(echo glob); }
f; echo "${v:-unset} $v2"
a=1 b=$(echo two) c=$a$b; echo "$c"
declare -a arr=($(echo p q r)); echo "${arr[1]}"
export E=$(echo exported); bash -c 'echo $E'
echo "content" > c.txt; w=$(<c.txt); echo "[$w]"
if v=$(echo ok); then echo "then $v"; fi
set -e; ok=$(true); echo "after set -e"
