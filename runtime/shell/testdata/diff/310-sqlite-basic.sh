# needs: sqlite3
sqlite3 app.db "create table users(id integer primary key, name text, age int, city text);"
tail -n +2 data/users.csv | while IFS=, read -r id name age city; do
  sqlite3 app.db "insert into users values($id, '$name', $age, '$city');"
done
sqlite3 app.db "select count(*) from users"
sqlite3 app.db "select name, age from users where age > 26 order by age desc"
sqlite3 app.db "select city, count(*), avg(age) from users group by city order by city"
sqlite3 app.db .tables
sqlite3 app.db .schema
sqlite3 app.db "select * from nope"; echo "rc=$?"
sqlite3 app.db "update users set age = age + 1 where city = 'Paris'" "select name, age from users where city = 'Paris'"
ls *.db
