nl data/words.txt | head -3
nl -ba README.md | tail -2
printf 'AB\n' | od -c
printf 'AB' | od -An -tx1
printf 'hi' | xxd
printf 'hi' | xxd -p
