# alias NAME for an unknown name and unalias of one are status 1; unalias
# alone is a usage error (2); unalias -a removes all; alias -p and alias --.
alias -- e=echo ll='ls -l' zz=true
alias e nonexistentZ; echo "status=$?"
alias -p
unalias e nonexistentZ; echo "status=$?"
alias
unalias; echo "status=$?"
unalias -a; alias; echo "status=$?"
