printf 'a\tb\x01\n' | cat -A
printf 'x\n\n\ny\n' | cat -s
printf 'x\ny\n' | cat -n
printf 'x\n\ny\n' | cat -b
printf 'tab\there\n' | cat -T
printf 'e\n' | cat -E
