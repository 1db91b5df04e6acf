s="Hello, World"
echo ${#s} ${s:7} ${s:0:5} ${s: -5}
echo ${s,,} ${s^^}
echo ${s/World/There}
f=path/to/file.tar.gz; echo ${f##*/} ${f%/*} ${f%%.*} ${f#*.}
u=; echo ${u:-default} ${u:=set}; echo $u
v=x; echo ${v:+alt} ${w:+none}
