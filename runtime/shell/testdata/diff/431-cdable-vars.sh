# shopt -s cdable_vars: cd NAME goes to the directory a variable NAME holds.
mkdir -p sub/dir
shopt -s cdable_vars; echo $?
v=sub/dir
cd v && pwd | sed 's|.*/sub|/sub|'
cd ../..
cd nonexist 2>/dev/null; echo $?
shopt -u cdable_vars
cd v 2>/dev/null; echo $?
