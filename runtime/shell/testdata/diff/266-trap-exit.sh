bash -c 'trap "echo cleanup" EXIT; echo work'
bash -c 'trap "echo on error" ERR; false; echo continue' 
f() { trap 'echo returned' RETURN; echo in f; }; f 2>/dev/null | head -1
