# Arithmetic assigns to array elements in place: (( a[i]=v )), a[i]++,
# compound assignments, associative keys, a for (( )) header (which the
# rewrite cannot reach), negative subscripts, a gap makes the array sparse.
(( a[1]=5 )); echo "a: ${a[@]} ${#a[@]}"
(( a[1]++, a[0]+=3 )); echo "a: ${a[*]}"
for (( b[0]=0; b[0]<3; b[0]++ )); do echo "b=${b[0]}"; done
c=(1 2 3); (( c[-1]*=10 )); echo "c: ${c[*]}"
d=(x); (( d[5]=7 )); echo "d: ${!d[@]} / ${d[*]}"
declare -A m; (( m[k]=4 )); (( m[k]++ )); echo "m: ${m[k]}"
i=2; (( e[i+1]=9 )); echo "e: ${!e[@]} ${e[3]}"
s=abc; (( s[1]=2 )); echo "s: ${s[*]}"
