s="hello/world.txt"
echo ${s%.txt} ${s#*/} ${s##*.} ${s%%/*}
echo ${#s}
echo ${s/world/there}
echo ${s^^}
v=""
echo ${v:-default} ${v:=set}; echo $v
echo ${s:0:5} ${s:6}
