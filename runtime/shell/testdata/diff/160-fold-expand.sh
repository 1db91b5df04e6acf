echo "the quick brown fox jumps over the lazy dog" > t
fold -w 10 t
fold -s -w 10 t
fold -b -w 7 t
printf 'a\tb\tc\n\td\n' > tabs
expand tabs | cat -A
expand -t 4 tabs | cat -A
expand -i tabs | cat -A
printf '        x       y\n    z\n' | unexpand | cat -A
printf '        x       y\n' | unexpand -a | cat -A
printf '    a   b\n' | unexpand -t 4 | cat -A
