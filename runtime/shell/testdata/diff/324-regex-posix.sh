# POSIX regular expressions as GNU grep and sed read them
printf 'a$HOME\nx^y\n*star\naaa\n[=]\nb]c\ne-x\n' > re.txt
grep 'a$HOME' re.txt
grep 'x^y' re.txt
grep -c '^*' re.txt
grep -o 'a\{,2\}' re.txt
grep -o 'a**' re.txt
grep '[[=e=]]-x' re.txt
grep '[]]c' re.txt
grep -E 'a{,1}$' re.txt
grep -E 'x{a}' re.txt; echo "status=$?"
sed -n 's/\(a\)\{2\}/<&>/p' re.txt
sed -n '/[[:punct:]]star/p' re.txt
echo 'hello world' | sed -E 's/(o)+ /[\1]/'
expr 'abc123' : '[a-z]*\([0-9]*\)'
grep '[[:foo:]]' re.txt; echo "status=$?"
grep 'x\{1' re.txt; echo "status=$?"
