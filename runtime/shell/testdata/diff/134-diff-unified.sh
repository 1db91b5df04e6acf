sed 's/alice/alicia/; s/Rome/Milan/' data/users.csv > users2.csv
diff -u --label a/users.csv --label b/users.csv data/users.csv users2.csv; echo "status=$?"
diff -U1 --label old --label new data/users.csv users2.csv
diff -U0 --label old --label new data/users.csv users2.csv
diff -u data/users.csv users2.csv | tail -n +3
seq 1 30 > s1.txt; seq 1 30 | sed '5d; 20s/.*/twenty/' > s2.txt
diff -u --label s1 --label s2 s1.txt s2.txt
