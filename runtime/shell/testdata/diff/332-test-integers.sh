# test's integer comparisons take decimal integers only: a word, arithmetic
# (1+2) or an empty operand is status 2; leading zeros are decimal.
[ a -eq a ]; echo "status=$?"
[ 1+2 -eq 3 ]; echo "status=$?"
s='1+2'; [ "$s" -eq 3 ]; echo "status=$?"
[ 083 -eq 83 ]; echo "status=$?"; [ -083 -eq -83 ]; echo "status=$?"
[ ' 7 ' -eq 7 ]; echo "status=$?"; test ! 3 -lt 2; echo "status=$?"; [ 1 -eq '' ]; echo "status=$?"
test 5 -ge +5; echo "status=$?"; [ --5 -eq 5 ]; echo "status=$?"
