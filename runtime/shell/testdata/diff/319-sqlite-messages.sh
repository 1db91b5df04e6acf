# needs: sqlite3
# sqlite3's error messages, compared through 2>&1.
sqlite3 m.db "create table t(x unique, y not null); insert into t values (1, 'a')" 2>&1
sqlite3 m.db "selec 1" 2>&1; echo "rc=$?"
sqlite3 m.db "select * from t where" 2>&1; echo "rc=$?"
sqlite3 m.db "select 'abc" 2>&1; echo "rc=$?"
sqlite3 m.db "select * from nope" 2>&1; echo "rc=$?"
sqlite3 m.db "insert into t values (1, 'b')" 2>&1; echo "rc=$?"
sqlite3 m.db "insert into t values (2, null)" 2>&1; echo "rc=$?"
printf 'select 1;\nselect * frm t;\ninsert into t values (1, 1);\nselect count(*) from t;\n' | sqlite3 m.db 2>&1; echo "rc=$?"
sqlite3 m.db .bogus 2>&1; echo "rc=$?"
sqlite3 m.db ".mode nonsense" 2>&1; echo "rc=$?"
sqlite3 -bogus m.db 2>&1; echo "rc=$?"
sqlite3 m.db ".read missing.sql" 2>&1; echo "rc=$?"
printf 'a,b\n1\n2,3,4\n' > r.csv; sqlite3 m.db ".import --csv r.csv imp" "select * from imp" 2>&1
