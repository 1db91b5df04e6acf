printf '%s-%s\n' a b c d
printf '%5d|%-5d|%05d\n' 42 42 42
printf '%.3f %e\n' 3.14159 12345.678
printf '%x %X %o\n' 255 255 8
printf '%c%c\n' A B
printf '%%done\n'
printf '%b\n' 'tab\there'
printf '%q\n' "it's"
