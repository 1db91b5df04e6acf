# needs: sqlite3
sqlite3 t.db "create table t(a int, b text, c real, d blob); insert into t values(1,'x,y',1.5,x'41'),(NULL,'q\"r',2.0,NULL),(22,'it''s',1e20,''),(3,'a b',0.1,'é');"
for m in list csv tabs line column table markdown box json quote; do
  echo "== $m"
  sqlite3 -header -$m t.db "select * from t"
  sqlite3 -$m t.db "select a, b from t where a = 1"
done
sqlite3 -csv -noheader t.db "select b from t"
sqlite3 -separator ' :: ' -nullvalue '<null>' t.db "select a, b from t"
sqlite3 -json t.db "select 1 as one; select 2 as two; select 3 where 0"
sqlite3 -line t.db "select 1 as a, 'long' as longer_name"
