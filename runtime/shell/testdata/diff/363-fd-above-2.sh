# File descriptors above 2: exec opens and closes them for the shell, a
# command's own 3> lasts for that command, >&N and <&N dup them, {var}>
# allocates one from 10; a closed descriptor is a bad file descriptor.
exec 3> out3
echo hello >&3
echo world >&3
exec 3>&-
cat out3
echo again >&3; echo "closed=$?"
{ echo inner >&4; } 4> out4; cat out4
echo twenty 20> out20 >&20; cat out20
exec {fd}> named
[ "$fd" -ge 10 ] && echo "fd at least 10"
echo named-contents >&$fd
exec {fd}>&-
cat named
printf 'first\nsecond\n' > in
exec 5< in
read -r a <&5
read -r b <&5
echo "a=$a b=$b"
exec 5<&-
exec 6>&1
echo via-six >&6
exec 6>&-
f() { echo from-f >&7; }
f 7> out7; cat out7
