printf -v out '%05.1f' 3.14159; echo "$out"
printf -v list '%s,' a b c; echo "${list%,}"
for i in 1 2; do printf -v "var$i" 'v%d' $i; done; echo $var1 $var2
