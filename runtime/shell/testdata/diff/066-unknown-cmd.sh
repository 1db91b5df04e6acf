nosuchcommand arg
echo "rc=$?"
