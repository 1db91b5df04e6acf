# declare -p prints each variable as the declare that makes it again
# (double quotes, or $'...' for control characters), arrays with their
# indexes; -F the functions; declare with no
# operand name=value quoted only when needed; export -p and readonly -p
# the exported and readonly ones; a missing name is status 1.
s1=111; readonly s2=222; export s3=333; a2=(x 'y z'); a2[5]=w
declare -A m=([k]=v)
y=$'1\n2"$\\'; z='q"$`\'; plain=spam; empty=
declare -p s1 s2 s3 a2 m y z plain empty
declare -p nosuch; echo "status=$?"
declare -p s1 nosuch s3; echo "status=$?"
declare | grep -E '^(s1|s2|s3|a2|y|z|plain|empty)='
declare -p | grep -E '^declare -[-a-zA-Z]* (s1|s2|s3|s4)(=|$)'
declare -pr | grep -E '^declare -[-a-zA-Z]* (s1|s2|s3)(=|$)'
declare -px | grep -E '^declare -[-a-zA-Z]* (s1|s2|s3)(=|$)'
export -p | grep -E '^declare -[-a-zA-Z]* (s1|s2|s3)(=|$)'
readonly -p | grep -E '^declare -[-a-zA-Z]* (s1|s2|s3)(=|$)'
declare -pa | grep -E '^declare -a a[12]'
eval "$(declare -p a2)"; echo "${a2[5]} ${#a2[@]}"
f() { declare -p loc; }; g() { local loc=L; f; }; g
add() { :; }; _ab() { :; }
declare -F | grep -E '^declare -[-a-zA-Z]* (add|_ab)$'
declare -F add nosuchf; echo "status=$?"
# set with no operand lists the variables too; export -p and readonly -p
# with names print nothing.
arr=(1 2 '3 4'); declare -A as=(['k e y']='v a l')
set | grep -E '^(zz|arr|as|y|plain)='
export -p s3; readonly -p s2; echo "status=$?"
