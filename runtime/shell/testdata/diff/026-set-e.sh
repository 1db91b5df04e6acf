set -e
echo one
false
echo two
