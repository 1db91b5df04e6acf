echo a b c | xargs -n1 echo item
printf '1\n2\n3\n' | xargs -I{} echo "n={}"
echo | xargs -r echo nothing
seq 5 | xargs
