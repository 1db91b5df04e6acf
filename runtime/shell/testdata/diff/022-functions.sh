greet() { local who=$1; echo "hello, $who"; return 3; }
greet world
echo "rc=$?"
count() { wc -l < "$1"; }
count data/words.txt
fib() { if [ $1 -le 1 ]; then echo $1; else echo $(( $(fib $(($1-1))) + $(fib $(($1-2))) )); fi; }
fib 10
