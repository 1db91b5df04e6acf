[ -f README.md ] && echo file
[ -d src ] && echo dir
[ -z "" ] && echo empty
[ "a" = "a" ] && echo eq
[[ abc == a* ]] && echo glob
[[ "x1" =~ ^x[0-9]$ ]] && echo regex
[ 3 -lt 5 -a 5 -gt 1 ] && echo both
[[ -e nosuch ]] || echo missing
test -s notes/empty.txt || echo "empty file"
