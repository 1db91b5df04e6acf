[ -d src ] && echo dir
[ -f src ] || echo notfile
[ -e nosuch ] || echo missing
[ -s notes/empty.txt ] || echo empty
[ "a" = "a" ] && echo eq
[ 3 -gt 2 ] && echo gt
[[ "abc" == a* ]] && echo glob
[[ -n "x" && -z "" ]] && echo nz
