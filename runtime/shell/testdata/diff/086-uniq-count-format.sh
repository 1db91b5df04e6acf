printf 'a\na\nb\n' | uniq -c
printf 'x\n' | uniq -c
