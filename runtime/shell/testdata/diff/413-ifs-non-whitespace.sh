# Field splitting as POSIX says: IFS white space around a delimiter is one
# delimiter; every other IFS character ends a field, an empty one too.
p() { printf '<%s>' "$@"; echo; }
IFS=_; x=_a__b_; p $x; p z$x; p ${x}z
IFS=': '; x=' a : b  c::d '; p $x
IFS=' '; x='  a  b  '; p $x; p "$x"
IFS=:; e=''; p $e; x=':'; p $x; x='::'; p $x
IFS=$' \t\n'; x='a b'; p pre$x"q"
IFS='\ '; x='a\b\\c d'; p $x
