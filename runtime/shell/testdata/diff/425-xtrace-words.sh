# xtrace quotes each word as bash does, and writes to the stderr the
# command had before its own redirections.
{
  set -x
  echo a=b '~x' x~ '#a' a# '*' '' "it's" % '^' a,b '!' $'a\x03b' $'a\nb'
  x="a b" y=c z=
  printf 'aaaa' > /dev/null 2> inner.txt
  set +x
} 2> trace.txt
cat trace.txt
echo "inner: [$(cat inner.txt)]"
