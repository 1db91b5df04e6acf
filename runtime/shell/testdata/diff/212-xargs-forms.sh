echo a b c | xargs -n 1 echo item
printf '1\n2\n3\n' | xargs -I{} echo "n={}"
printf 'x y\n' | xargs echo pre
echo | xargs -r echo never; echo "rc=$?"
printf 'a\0b\0' | xargs -0 -n1 echo
