printf 'b,2\na,2\nc,1\n' | sort -t, -k2,2n -s
printf '10\n9\n100\n' | sort
printf '10\n9\n100\n' | sort -n
printf 'x\nX\ny\n' | sort -f
printf '1.5K\n2M\n100\n' | sort -h
printf 'v1.10\nv1.2\nv1.9\n' | sort -V
