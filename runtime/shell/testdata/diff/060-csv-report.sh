tail -n +2 data/users.csv | cut -d, -f4 | sort | uniq -c | sort -k1,1nr -k2
tail -n +2 data/users.csv | sort -t, -k3 -n | head -1 | cut -d, -f2
