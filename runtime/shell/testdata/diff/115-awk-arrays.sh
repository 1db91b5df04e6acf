awk -F, 'NR > 1 {count[$4]++; ages[$4] += $3} END {for (c in count) printf "%s %d %.1f\n", c, count[c], ages[c] / count[c]}' data/users.csv | sort
awk '{seen[$0]++} END {for (w in seen) print seen[w], w}' data/words.txt | sort -k1,1nr -k2
awk '!seen[$0]++' data/words.txt
awk '{a[NR] = $0} END {for (i = NR; i >= 1; i--) print a[i]}' data/numbers.txt
awk 'BEGIN {a["x"] = 1; a["y"] = 2; delete a["x"]; print length(a), ("x" in a), ("y" in a); delete a; print length(a)}'
