outer() { inner() { echo "inner $1"; }; inner "$1-x"; }
outer a; inner b
counter=0; inc() { counter=$((counter+1)); }; inc; inc; echo $counter
fn() { local -a arr=("$@"); echo "${#arr[@]}"; }; fn 1 2 3
