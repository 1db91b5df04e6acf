env FOO=1 bash -c 'echo "[$FOO]"'
env FOO=2 printenv FOO
printf 'echo "[$X]"\n' > s.sh; chmod +x s.sh; env X=3 ./s.sh
env A=1 bash -c 'export B=2; printenv B'
env -u HOME printenv HOME || echo "no HOME"
env -i printenv | wc -l
