# A backslash outside quotes in an assignment's value is removed; inside
# "${x:-...}" it only escapes what it escapes in double quotes; quoted parts
# of =~ match literally, patterns in ${x#...} keep their escapes.
a=\*; b=a\ b; c=a\\b; d=${u:-\*}; declare e=\?x; export f=\$g
echo "$a|$b|$c|$d|$e|$f"
echo "${u:-\*}|${u:-\$}|${u:-a\ b}"
x='a*b'; echo "${x#\*}|${x#a\*}|${x#"a*"}|${x%\*b}|${x/\*/S}"
[[ 'a.c' =~ ^a"."c$ ]] && echo dot-quoted
[[ 'abc' =~ ^a"."c$ ]] || echo dot-literal
[[ 'a.c' =~ ^a\.c$ ]] && echo dot-escaped
re='^a.c$'; [[ 'abc' =~ $re ]] && echo re-var
