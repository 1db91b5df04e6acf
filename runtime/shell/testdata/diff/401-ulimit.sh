# ulimit keeps the shell's table of soft and hard limits: no flag is -f,
# a value sets both, -S/-H one; a soft limit above the hard one and a
# raised hard limit fail; bad numbers, options and overflow are errors.
ulimit; echo "status=$?"
ulimit -f; ulimit -c; ulimit -H -f
ulimit -f zz; echo "status=$?"
ulimit -f -42; echo "status=$?"
ulimit -f -- -42; echo "status=$?"
ulimit -f $(( (1 << 62) + 1 )); echo "status=$?"; ulimit -f
ulimit -f $(( 1 << 32 )); echo "status=$?"; ulimit -f
ulimit -f unlimited; echo "status=$?"
ulimit -S -H -t 100; echo "both=$?"
ulimit -S -t 90; echo "soft=$?"; ulimit -t; ulimit -H -t
ulimit -S -t 105; echo "soft=$?"
ulimit -H -t 200; echo "hard=$?"
ulimit -H -t 80; echo "hard=$?"
ulimit -H -t 95; echo "hard=$?"; ulimit -S -t; ulimit -H -t
ulimit -t hard; ulimit -t
ulimit -Q; echo "status=$?"
( ulimit -S -t 10; ulimit -t )
