# od: several -t formats a block each, fields aligned across formats;
# -b -c -x -d -o shorthands, sizes, signed and unsigned decimal, named
# characters, a repeated block shown as "*" unless -v, -j/-N/-w, radixes.
printf 'a\0-\n' | od -A n -t c -t x1
printf 'ab\377\001\t' | od -t d1 -t u1 -t o1
printf 'ab\377\001' | od -A n -t u1 -t x2
printf 'hello world\n' | od -b
printf 'hello world\n' | od -c
printf 'abc' | od -x -A d
printf 'abcd' | od -d -A x
printf 'abcdefgh' | od -t x4 -t d4
printf '\001\177 x' | od -t a -A n
printf '%048d' 0 | od -c
printf '%048d' 0 | od -v -A n -c
printf '0123456789abcdefghij' | od -A d -j 3 -N 10 -t c
printf '0123456789' | od -w4 -A n -t x1
od -t q1 </dev/null; echo "status=$?"
