printf 'a 1\nb 2\nc 3\n' > l; printf 'a x\nc y\nd z\n' > r
join l r
join -v1 l r
join -a2 l r
join -o 2.2,1.2 l r
join -j 1 l r
printf 'k:1:p\nm:2:q\n' > c1; printf 'k:A\nm:B\n' > c2
join -t: c1 c2
join -t: -o 1.3,2.2 c1 c2
echo "A 1" > u1; echo "a 2" > u2; join -i u1 u2
