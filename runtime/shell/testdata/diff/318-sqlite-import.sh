# needs: sqlite3
sqlite3 u.db ".import --csv data/users.csv users" ".schema" "select name, age + 0 from users where city = 'Paris'"
sqlite3 u.db ".mode csv" ".import data/users.csv users" "select count(*) from users"
sqlite3 u.db ".import --csv --skip 1 data/users.csv users" "select count(*), sum(age) from users"
printf 'a|b\n1|"x|y"\n2|"q""r"\n' > p.txt
sqlite3 u.db ".import p.txt piped" "select * from piped"
printf 'x,y,z\n1,2\n3,4,5,6\n"multi\nline",7,8\r\n' > ragged.csv
sqlite3 -header u.db ".import --csv ragged.csv r" "select * from r" 2>/dev/null
sqlite3 u.db ".import missing.csv t"; echo "rc=$?"
sqlite3 -json u.db "select id, name from users order by id limit 2"
sqlite3 q.db "create table \"my t\"(x); insert into \"my t\" values (1)" .dump
