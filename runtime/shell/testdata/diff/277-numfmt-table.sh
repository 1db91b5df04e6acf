printf '%s\n' 512 2048 3145728 | numfmt --to=iec --padding=6
printf 'f 1000\ng 1000000\n' | numfmt --field 2 --to=si
