for n in 11 13 15 17 21; do factor $n; done | awk 'NF==2 {print $2}'
factor 4294967297
