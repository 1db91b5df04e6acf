# A declaration behind builtin or command (builtin export e=E, command local)
# declares, as bash does.
builtin export e=E; printenv e
command export f="F G"; echo "$f"
g() { builtin local l=L; command readonly r=R; echo "$l $r"; }; g; echo "[${l-unset}]"
