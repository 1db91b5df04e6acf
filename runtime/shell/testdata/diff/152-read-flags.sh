printf 'a b c\nd e\n' > in.txt
while read -r x rest; do echo "[$x] [$rest]"; done < in.txt
read -r one two < in.txt; echo "$one|$two"
read -a arr < in.txt; echo "${#arr[@]} ${arr[1]}"
echo "x y" | { read -n 1 c; read -N 2 d; echo "[$c][$d]"; }
read -d , a b <<< "p q,r"; echo "$a|$b"
IFS=: read -r u p rest <<< "root:x:0:0"; echo "$u $p $rest"
printf 'back\\slash\n' | { read v; echo "$v"; }
printf 'back\\slash\n' | { read -r v; echo "$v"; }
printf 'cont\\\nline\n' | { read v; echo "$v"; }
printf 'no newline' | { read v; echo "status=$? v=$v"; }
read q < /dev/null; echo "eof=$?"
printf '  lead  trail  \n' | { read v; echo "[$v]"; }
printf '  lead  trail  \n' | { IFS= read -r v; echo "[$v]"; }
printf 'l1\nl2\n' | { read; echo "[$REPLY]"; }
