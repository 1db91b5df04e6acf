# "$@" and "${a[@]}" make a field per element wherever they are inside
# double quotes; with no element and nothing else there, no field.
p() { echo "$# $(printf '<%s>' "$@")"; }
set --; x=
p "$@$x"; p "$@$@"; p "$@"""; p "x$@"; p "$@"x
set -- a b
p "-$@-"; p "$@$@"; p "${@}ab${@}"; p "[$*]$@"
a=(1 2); b=(v0 v1 v2); b[7]=v7
p "<${a[@]}>"; p "${a[*]}x${a[@]}"; p "abc${b[@]}xyz"; p "abc${b[@]#v}xyz"
p "k${!b[@]}k"; p "${b[@]/v/w}-"
e=(); p "${e[@]}"; p "${e[@]}$x"; p "${e[@]}"$x; p "${e[@]}"""; p "z${e[@]}"
set -- ''; p "$@$x"; p "x$@"
