# printf %q quotes as bash does: backslashes for shell syntax, $'...'
# for control characters and bytes that are not UTF-8; \u and \U escapes.
quotes="'\""
printf '%q\n' "$quotes" 'a b' '' 'x*y' $'one\ntwo' $'a\x01b' $'\xff' '~x' 'a~' '#a' 'a#'
printf '[%10q]\n' ab
LC_ALL=C.UTF-8 printf '\u03bc \U000003bc \u41 \u\n'
eval "x=$(printf '%q' $'p\nq r')"; printf '%s\n' "$x"
