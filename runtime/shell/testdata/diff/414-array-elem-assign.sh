# a[i]=v on a name not yet set makes an indexed array (sparse when i
# leaves holes); a[i]+=v appends to that element, A[k]+=v to that key; a
# string is element 0 of the array it becomes.
sp[10]=a; sp[20]=b; declare -p sp
sp[-1]=B; sp[-11]=A; declare -p sp
a=(x y); a[1]+=z; a[5]+=q; declare -p a; echo "${a[@]}"
declare -A A; A[k]=v; A[k]+=w; declare -p A; A[k]=; A[k]+=x; echo "${A[k]}"
s=str; s[2]=t; declare -p s
n[0]+=1; n[0]+=2; declare -p n
