echo "a b c d" | awk '{ NF = 2; print; print NF }'
echo "a b c" | awk '{ $5 = "e"; print; print NF }'
echo "a b c" | awk 'BEGIN { OFS = ":" } { $2 = ""; print }'
echo "  lead  trail  " | awk '{ print NF, "[" $1 "]" }'
echo "  lead  trail  " | awk '{ $1 = $1; print "[" $0 "]" }'
echo "a b c" | awk '{ $0 = "x y"; print $1, NF }'
awk '{ $2 = toupper($2) } 1' data/log.txt
