strings README.md
printf 'a\x01bcdef\x02gh\x03ijklmn\n' | strings -n 5
printf 'xxxx\0yyyy\0' > z; strings -t x z
strings -n 20 README.md; echo "none: $?"
