x=7; y=3
echo $((x+y)) $((x*y)) $((x/y)) $((x%y)) $((x**2)) $((x>y))
let z=x*2; echo $z
echo $(( (1+2)*3 ))
n=0; for i in 1 2 3 4; do ((n+=i)); done; echo $n
