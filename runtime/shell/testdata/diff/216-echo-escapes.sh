echo -e 'a\tb\nc'
echo -n 'no newline'; echo
echo -E 'raw\t'
echo "quoted  spaces"
echo $'ansi\tc'
