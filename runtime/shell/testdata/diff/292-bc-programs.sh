printf 'define fib(n) {\n if (n < 2) return (n)\n return (fib(n-1) + fib(n-2))\n}\nfib(15)\n' | bc
printf 'x = 1\nfor (i = 0; i < 10; i++) x = x * 2\nx\n' | bc
printf 'if (3 > 2) print "yes\\n" else print "no\\n"\n' | bc
echo "obase=16; 3735928559" | bc
echo "ibase=2; 1010" | bc
