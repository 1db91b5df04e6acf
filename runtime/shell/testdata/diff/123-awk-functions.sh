awk 'function fact(n) { return n <= 1 ? 1 : n * fact(n - 1) } BEGIN { for (i = 1; i <= 10; i++) printf "%d! = %d\n", i, fact(i) }'
awk 'function max(a, b) { return a > b ? a : b } { m = max(m, $1 + 0) } END { print m }' data/numbers.txt
awk 'function fill(arr, n,   i) { for (i = 1; i <= n; i++) arr[i] = i * i } BEGIN { fill(sq, 5); print sq[3], sq[5], length(sq) }'
awk 'function join(a, n, sep,   s, i) { s = a[1]; for (i = 2; i <= n; i++) s = s sep a[i]; return s } { w[NR] = $0 } END { print join(w, NR, ",") }' data/words.txt
awk 'function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s } BEGIN { print "[" trim("   padded  ") "]" }'
