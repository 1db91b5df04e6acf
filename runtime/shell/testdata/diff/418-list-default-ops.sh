# ${a[@]-x}, ${a[@]:-x}, ${a[@]+x}: an array with no element is unset, one whose
# elements joined are empty is null; otherwise each element is a field.
p() { echo "$# $(printf '<%s>' "$@")"; }
a1=(); a2=(""); a3=("" ""); a4=(x 'y z')
for n in a1 a2 a3 a4; do
  eval 'p "${'$n'[@]-unset}"; p "${'$n'[@]:-empty}"; p "[${'$n'[@]-unset}]"; p "[${'$n'[@]:-empty}]"; p ${'$n'[@]:-e f}; p "${'$n'[@]:+alt}"; p "${'$n'[@]+alt}"; p "<${'$n'[@]+alt}>"'
done
set --; p "${@-none}"; p "${@:-none}"; set -- a 'b c'; p "${@-none}"; p "x${@:-none}"
declare -A A=([k]=v); p "${A[@]-u}"; declare -A B=(); p "${B[@]-u}"
