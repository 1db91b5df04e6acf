printf '%s=%d\n' a 1 b 2
printf '%5s|%-5s|\n' ab cd
printf '%03d %x %o\n' 7 255 8
printf '%.2f\n' 3.14159
printf 'no newline'
echo
