# needs: sqlite3
sqlite3 n.db "create table t(x); insert into t values (1),(2),(3);"
sqlite3 n.db "select sum(x) from t"
cp n.db copy.db
sqlite3 copy.db "delete from t where x = 2"
sqlite3 n.db "select count(*) from t"; sqlite3 copy.db "select count(*) from t"
cmp -s n.db copy.db || echo "files differ"
sqlite3 n.db "select x from t" > before.txt
sqlite3 n.db "select x from t where x > 1"
sqlite3 empty.db "select 1"; ls -l empty.db | awk '{print $5}'
sqlite3 n.db "begin; insert into t values (9);"; sqlite3 n.db "select count(*) from t"
sqlite3 n.db "with recursive c(i) as (select 1 union all select i+1 from c where i < 5) select group_concat(i) from c"
ls -l n.db | awk '{print $5}'
echo hello > notdb.txt
sqlite3 notdb.txt .tables; echo "rc=$?"
cat notdb.txt
