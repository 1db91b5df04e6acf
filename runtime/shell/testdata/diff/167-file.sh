# needs: file
printf 'hello\n' > t; : > e; printf 'no nl' > n; printf 'a\r\nb\r\n' > crlf
printf 'h\xc3\xa9llo\n' > u; printf '#!/bin/sh\necho\n' > s; printf '#!/bin/bash\necho\n' > b
printf '#!/usr/bin/env python3\nprint()\n' > p; mkdir d; ln -s t l; printf '\x00\x01\x02' > bin
printf '<?xml version="1.0"?>\n<a/>\n' > x.xml; printf '<!DOCTYPE html>\n<html></html>\n' > h.html
printf '%%PDF-1.4\n' > p.pdf; tar cf a.tar t
file t e n crlf u s b p d l bin x.xml h.html p.pdf a.tar data/config.json data/users.csv
file -b t
file -i t s data/config.json
file --mime-type t d
file -L l
