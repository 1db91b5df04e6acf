echo one > a
ln a b
echo two >> b
cat a
stat -c '%h %n' a b
ln a b
echo "exists: $?"
ln src srcdir 2>/dev/null
echo "dir: $?"
mkdir d
ln a d
ln -f README.md b
stat -c '%h %n' a b d/a README.md
rm a
cat d/a
stat -c '%h %n' d/a
