# LINENO as a bare name in arithmetic is the line of the expression.
echo one
(( x = LINENO ))
echo $x $((LINENO)) $(( LINENO + 1 ))
f() {
  echo $((LINENO))
}
f
