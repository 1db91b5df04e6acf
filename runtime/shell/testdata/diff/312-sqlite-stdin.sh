# needs: sqlite3
cat > schema.sql <<'SQL'
create table kv(k text primary key, v);
insert into kv values ('a', 1), ('b', 2.5), ('c', null);
-- a comment
create index kv_v on kv(v);
create view big as select k from kv where v > 1;
SQL
sqlite3 kv.db < schema.sql
printf '.headers on\n.mode csv\nselect * from kv;\n.mode column\nselect k, v from kv order by k desc;\n' | sqlite3 kv.db
printf 'select k\nfrom kv\nwhere v is null;\n.tables\n.indexes\n.schema big\n' | sqlite3 kv.db
sqlite3 kv.db .dump
printf 'select 1;\nselect * from missing;\nselect 2;\n' | sqlite3 kv.db; echo "rc=$?"
printf 'select 1;\nselect * from missing;\nselect 2;\n' | sqlite3 -bail kv.db; echo "rc=$?"
echo "select 40 + 2" | sqlite3
sqlite3 :memory: "select upper('x'), length('hello'), 7 / 2, 7 / 2.0"
sqlite3 -cmd '.mode line' kv.db "select * from kv where k = 'a'"
