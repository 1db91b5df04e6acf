seq -s ' ' 1 40 > nums
fold -w 20 nums
fold -w 20 -s nums
echo "abcdefghij" | fold -w 3
printf 'tab\there\n' | fold -w 5
fold -w 30 README.md
