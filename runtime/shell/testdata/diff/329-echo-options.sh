# echo with combined options (-en, -nE) and -e's escapes: \c ends the output,
# \0NNN, \xH, \uHHHH, \UHHHHHHHH, incomplete escapes kept as written.
echo -en 'abc\ndef\n'
echo -e xy 'ab\cde' zzz; echo
echo -e '\0377' | od -An -tx1
echo -e '\0400' | od -An -tx1
echo -e 'abcd\x6' | od -An -c
echo -e 'abcd\u006' | od -An -c
echo -e '\0 \1 \8' | od -An -c
echo -n -e 'a\tb'; echo
echo -nE 'a\tb'; echo -x 'y'; echo -- -n
