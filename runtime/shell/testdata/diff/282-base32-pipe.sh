printf 'hello world' | base32 | tr -d '=' ; echo
printf 'hello world' | base32 -w 8
