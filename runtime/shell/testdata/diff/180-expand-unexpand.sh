printf '\tx\n  \ty\n' | expand | cat -A
printf '\tx\n' | expand -t 2 | cat -A
printf 'a\tb\tc\n' | expand -t 3,8 | cat -A
printf '                x\n' | unexpand | cat -A
printf '        x        y\n' | unexpand --first-only | cat -A
printf 'ab      cd\n' | unexpand -a | cat -A
