a=apple; b=banana
[[ $a < $b ]] && echo less
[[ $a != $b ]] && echo diff
[[ $a =~ ^ap(p)le$ ]] && echo "match ${BASH_REMATCH[1]}"
