# ${x/#pat/r} and ${x/%pat/r} replace a match at the start or at the end; a
# quoted or escaped # is a plain character, one from an expansion anchors.
s=xx_xx_xx
echo ${s/?xx/_yy} ${s/%?xx/_yy} ${s/#xx/yy} ${s/%xx/yy} ${s/#x*/Z} ${s/%_*/Z} ${s/#/<} ${s/%/>} ${s/#y/Q}
a=(ab cb ba); echo "${a[@]/#?b/Z}" "${a[@]/%b/Z}"
p='#x'; echo "${s/$p/Q}" "${s/\#x/Q}"
