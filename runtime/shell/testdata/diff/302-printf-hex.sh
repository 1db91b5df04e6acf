printf '\x41\x42\n'
printf '%b\n' '\x43'
printf '\101\n'
printf 'a\vb\fc\n' | od -c | head -1
