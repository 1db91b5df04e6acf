echo $(( 7 / 2 )) $(( 7 % 2 )) $(( 2 ** 10 ))
x=5; (( x++ )); echo $x
(( y = x * 3 )); echo $y
echo $(( 0x1f )) $(( 010 )) $(( 2#101 ))
echo $(( x > 3 ? 1 : 0 ))
i=0; while (( i < 3 )); do (( i++ )); done; echo $i
let z=4+5; echo $z
