# test -v and [[ -v ]] of array elements: the subscript is arithmetic,
# negative ones count from the end; an array's name stands for element 0.
a[0]=x; a[5]=y; a[10]=z
for i in 0 1 5 -1 -2 -6 -11 '2+3' '@'; do test -v "a[$i]"; echo "a[$i] $?"; done
[[ -v a[-1] ]]; echo "[[ -1 ]] $?"
zero=0; [[ -v a[zero+5] ]]; echo "zero+5 $?"
b=('' nonempty); test -v b; echo "b $?"; test -v 'b[1]'; echo "b[1] $?"
unset 'b[0]'; test -v b; echo "b after unset $?"
declare -A A=([k]=1 [0]=z); test -v A; echo "A $?"; test -v 'A[k]'; echo "A[k] $?"
test -v 'A[@]'; echo "A[@] $?"; test -v 'A[q]'; echo "A[q] $?"
s=str; test -v 's[0]'; echo "s[0] $?"; test -v 's[1]'; echo "s[1] $?"; test -v 's[@]'; echo "s[@] $?"
test -v nosuch; echo "nosuch $?"; test -v 'nosuch[0]'; echo "nosuch[0] $?"
