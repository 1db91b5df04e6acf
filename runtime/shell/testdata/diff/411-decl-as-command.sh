# A declaration builtin reached as a plain command (behind builtin or
# command, or named by an expansion) declares, its arguments split as any
# command's, as bash 5.2 does; an expanded value keeps its backslashes.
x="a b"
command export z=$x; echo $z
builtin export y=$x; echo $y
\builtin declare w=$x; echo $w
c=export; $c v=$x; echo $v
command command readonly u=1; echo $u
f() { command local s=$x; echo $s; builtin local t=$x; echo $t; }; f
echo "[${s-unset}]"
q='k=\*'; declare $q; echo "$k"
builtin typeset -x tx=T; printenv tx
