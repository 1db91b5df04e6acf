cat > report.awk <<'AWK'
# report by city
BEGIN {
    FS = ","
    print "city report"
}
NR > 1 {
    count[$4]++
    total[$4] += $3
}
END {
    n = 0
    for (c in count)
        n++
    print n " cities"
    print "Paris:", count["Paris"], total["Paris"]
}
AWK
awk -f report.awk data/users.csv
echo '{ print NR ": " $0 }' > number.awk
awk -f number.awk data/words.txt | tail -2
