# `local` works in a pipeline stage and a subshell of a function.
f() { { local c=3; echo "c=$c"; } | cat; ( local d=4; echo "d=$d" ); echo "c=${c-unset} d=${d-unset}"; }
f
