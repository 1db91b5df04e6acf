for v in a b c; do eval "$v=\$v-value"; done; echo $a $b $c
cmd='echo from eval'; eval $cmd
eval 'x=1; y=$((x+1))'; echo $y
name=dyn; eval "$name() { echo dynamic function; }"; dyn
