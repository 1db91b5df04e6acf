bash -c 'exit 7'; echo $?
(exit 3); echo $?
true && false || echo "or branch $?"
nosuchcommand 2>/dev/null; echo $?
bash -c 'kill -0 $$ 2>/dev/null; echo alive' 
