a="x y"; printf '[%s]' $a; echo; printf '[%s]' "$a"; echo
echo 'single $a' "double $a" $'c\tstyle'
echo "nested \"quotes\""
set -- "one two" three; for x in "$@"; do echo "<$x>"; done
for x in $*; do echo "[$x]"; done
