# GNU sed reads \t and \n inside a bracket expression as a tab and a newline.
printf 'a\tb t\\\n' | sed 's/[\t]/X/g'; printf 'a\tb\n' | sed 's/\t/X/g'; printf 'a.b\n' | sed 's/[\.]/X/g'
printf 'a\tb  c\n' | sed 's/[ \t]\+/_/g'
printf 'x]y\n' | sed 's/[]\t]/Z/g'
printf 'a:b\tc\n' | sed 's/[[:alpha:]\t]/Q/g'
