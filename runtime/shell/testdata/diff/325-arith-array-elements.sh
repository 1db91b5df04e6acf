# Arithmetic assigns to array elements: (( a[1]=5 )), a[i]++, a[K] = V,
# and its exit status is the arithmetic's.
(( a[1]=5 )); echo "${a[@]} ${!a[@]} $?"
i=2; (( a[i]++ )); (( a[i]++ )); echo "${a[2]}"
(( a[3] = 0 )); echo "zero: $?"
x=$(( c[1]=3 )); echo "$x ${c[1]}"
K=5 V=42; typeset -a array; (( array[K] = V )); echo "${!array[@]}=${array[@]}"
! (( a[9]=1 )); echo "negated: $?"
(( a[4]=1 )) && echo and
(( a[6] += 2, a[6] *= 10 )); echo "${a[6]}"
f() { local -a l; (( l[2]=7 )); echo "local ${l[2]}"; }; f
echo "${a[@]}"
