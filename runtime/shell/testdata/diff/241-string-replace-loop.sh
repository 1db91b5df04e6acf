s="a.b.c.d"; echo "${s//./-}"
path=/usr/local/bin; IFS=/ read -ra parts <<< "$path"; echo "${#parts[@]} ${parts[2]}"
str="The cat sat"; echo "${str//at/og}"
x="aaa"; echo "${x/#a/b} ${x/%a/b}" 2>/dev/null | head -1 >/dev/null; echo "${x/a/b}"
