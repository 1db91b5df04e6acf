awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{
    city = $col["city"]
    age = $col["age"]
    n[city]++
    sum[city] += age
    if (!(city in oldest) || age > oldest[city]) { oldest[city] = age; who[city] = $col["name"] }
}
END {
    printf "%-8s %3s %6s %s\n", "city", "n", "avg", "oldest"
    for (c in n) printf "%-8s %3d %6.2f %s\n", c, n[c], sum[c] / n[c], who[c] | "sort"
    close("sort")
    print "done"
}' data/users.csv
