# time's report goes to stderr: stdout keeps only the command's output,
# and the report can be captured from stderr.
time echo hello
{ time true; } 2> report
grep -c '^real' report
out=$( { time echo captured; } 2>/dev/null ); echo "out=$out"
