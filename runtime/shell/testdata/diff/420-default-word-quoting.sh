# Unquoted ${x:-word} (and -, +, :+) whose word applies puts the word in its
# place with its quoting: quoted parts are not split, the rest is.
p() { echo "$# $(printf '<%s>' "$@")"; }
var='a b c'
p ${Unset:-'a b c'}; p ${Unset:-"a b c"}; p ${Unset:-"a b" c}; p ${a:-${a:-"1 2" "3 4"}5 "6 7"}
p ${Unset:-"$var"}; p ${Unset:-A$var " $var"D E F}; p ${undef-'c d'} ${undef-'c  d'}
p ${var:+"x y" z}; p ${var+'q r'}; p ${u:-a\ b c}; p ${u:-}; p ${u:-""}; p x${u:-"1 2"}y
IFS=:; p ${u:-a:b"c:d"}; IFS=$' \t\n'
set -- one; p ${1:-"d e"} ${2:-"f g"}
p ${u:-*.nomatch "*"}
