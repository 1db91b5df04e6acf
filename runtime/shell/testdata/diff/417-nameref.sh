# Namerefs: declare -n on a set variable makes its value the name it refers
# to, +n takes that off; declare -n ref=y re-points ref; a reference with no
# value gets one by assignment; unset follows it; a reference to an element.
x=foo; ref=x; echo ref=$ref; typeset -n ref; echo ref=$ref; x=bar; echo ref=$ref "${!ref}"; typeset +n ref; echo ref=$ref
x=XX; y=YY; typeset -n r2=x; typeset -n r2=y; echo $r2 $x $y; r2=z; echo $r2 $x $y
typeset -n r3; echo "r3=$r3"; r3=x; echo "r3=$r3"; r3=Q; echo "x=$x"
typeset -n r4=x; unset r4; echo "x=${x-unset} r4=$r4"
f3() { local -n ref=$1; ref=x; }; f2() { f3 "$@"; }; f1() { local F1=F1; f2 F1; echo F1=$F1; }; f1
typeset -n bad='@'; echo "status=$?"
a=(1 2); unset -v 'a[-5]'; echo "unset status=$?"
E=1; export E; typeset +x E; printenv E; echo "E=$E"
typeset -n ref='a[2]'; a=(zero one two three); echo ref=$ref
typeset -n r2='a[$(echo 2) + 1]'; echo r2=$r2
typeset -A A; A['foo']=bar
p() { local s=foo; local -n f=A["$s"]; echo "$f"; }; p
