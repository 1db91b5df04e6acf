# An associative array's subscript that looks like arithmetic is the key
# as written.
declare -A a
echo "[${a[a+1]}]"
a[a+1]=x
a[x*2]=y
echo "${a[a+1]} ${a[x*2]}"
for k in "${!a[@]}"; do echo "key $k"; done | sort
