x=1; (x=2; echo "inner $x"); echo "outer $x"
echo "$(echo nested $(echo deep))"
y=$(cd src && pwd); echo "${y##*/}"
(cd data && ls | head -2)
out=$( { echo a; echo b >&2; } 2>/dev/null ); echo "$out"
