# needs: sqlite3
sqlite3 e.db "create table t(x unique, y not null); insert into t values (1, 'a');"
sqlite3 e.db "insert into t values (1, 'b')"; echo "rc=$?"
sqlite3 e.db "insert into t values (2, null)"; echo "rc=$?"
sqlite3 e.db "select * from nope"; echo "rc=$?"
sqlite3 e.db "selec 1"; echo "rc=$?"
sqlite3 e.db "select 1" ".quit" "select 2"; echo "rc=$?"
sqlite3 e.db .bogus; echo "rc=$?"
printf 'insert into t values (3, 3);\ninsert into t values (3, 4);\ninsert into t values (5, 5);\nselect count(*) from t;\n' | sqlite3 e.db; echo "rc=$?"
sqlite3 e.db "select x, y from t order by x"
sqlite3 -header -csv e.db "select x as 'the x', y from t" > out.csv; cat out.csv
sqlite3 e.db ".mode json" "select * from t where x > 100"; echo "rc=$?"
