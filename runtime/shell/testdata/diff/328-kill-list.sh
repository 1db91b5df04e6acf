# kill -l and -L name signals and translate names and numbers (an exit status
# above 128 names its signal); an invalid signal is status 1. No signal is sent.
kill -l | grep -c HUP
builtin kill -l 10 11 12; echo "status=$?"
builtin kill -l SIGUSR1 SIGSEGV USR2; echo "status=$?"
builtin kill -L 10 BAD 12 2>/dev/null; echo "status=$?"
kill -l 134; kill -l 0 INT
kill -9999 999999 2>/dev/null; echo "invalid=$?"
kill -l | head -2
