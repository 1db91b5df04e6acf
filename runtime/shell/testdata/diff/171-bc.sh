# needs: bc
echo "1+2*3" | bc
echo "scale=2; 10/3" | bc
echo "10/3" | bc
echo "scale=3; 1/8" | bc
echo "2^10; 2^100" | bc
echo "-7 % 3; 7 % 3; scale=2; 7.5 % 2" | bc
echo "1.5 * 1.5; 1.25 * 4" | bc
echo "scale=4; sqrt(2); sqrt(16)" | bc
echo "sqrt(2)" | bc -l
echo "10/4" | bc -l
echo "a=5; b=a*2; b" | bc
echo "x=3; x+=2; x; x++; x; ++x" | bc
echo "5 > 3; 2 == 3; !0; 1 && 0; 1 || 0" | bc
echo "obase=2; 10; obase=16; 255" | bc
echo "ibase=16; FF; A" | bc
echo "length(12345); scale(1.234)" | bc
printf 'define f(n) {\n if (n <= 1) return (1)\n return (n * f(n-1))\n}\nf(20)\n' | bc
printf 'for (i = 1; i <= 5; i++) { s += i }\ns\n' | bc
printf 'i = 0\nwhile (i < 3) { print "i=", i, "\\n"; i = i + 1 }\n' | bc
echo "scale=10; 22/7" | bc
echo "2^300" | bc
echo "1/0" | bc; echo "div: $?"
echo "0.5 + 0.25; -0.5" | bc
a=7; b=2; echo "scale=1; $a / $b" | bc
echo "3.14159 * 2" | bc
