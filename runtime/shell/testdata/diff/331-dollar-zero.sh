# $0 is the shell's name for a script run with -c (or the name after the
# code), and the script's name for a script file.
bash -c 'echo "$0"'
printf 'echo "in $0 ${1-}"\n' > s.sh
bash s.sh x
bash -c 'echo "$0 $1"' name one
