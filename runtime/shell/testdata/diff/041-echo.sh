echo -n "a"; echo "b"
echo -e "tab\there"
echo "multi" "args"   "spaced"
echo
echo $((1+1))
