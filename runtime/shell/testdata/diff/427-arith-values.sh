# A variable's value in arithmetic is an expression of its own; constants
# are read as bash reads them, and a bad one fails the command (status 1).
x='1 + 2'; echo $((x * 3))
y='x+1'; echo $((y * 2))
z=y; (( z += 1 )); echo $z
n=-010 m=+010 h=-0x10; echo $((n)) $((m)) $((h)) $((2#101)) $((64#_)) $((36#Z))
let 'w = 3' v=w*2  # a comment
echo $w $v
# A bad constant in $(( )) drops the rest of the line, as bash does.
echo $((09)); echo not printed
echo $((0x1X)); echo not printed
echo $((2#A)); echo not printed
echo $((a + 42x)); echo not printed
echo $((2 ** -1)); echo not printed
r=r+1; echo $((r)); echo not printed
echo next
# In (( )), the command fails.
(( q = 1/0 )); echo st=$?
(( q = 08 )); echo st=$?
echo end
