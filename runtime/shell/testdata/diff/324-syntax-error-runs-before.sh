# A script with a syntax error runs the commands before the bad line, as
# bash reads one command at a time, and exits 2 there.
cat > bad.sh <<'X'
echo one
if true; then echo two; fi
echo three )
echo four
X
bash bad.sh 2>/dev/null
echo "status: $?"
bash -c 'echo a
echo b; (( 
echo c' 2>/dev/null
echo "status: $?"
bash -c 'for' 2>/dev/null
echo "status: $?"
