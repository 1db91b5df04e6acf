# needs: sqlite3
# Double-quoted strings: a "name" that is no column is a string literal
# (SQLite's DQS legacy, on in the 3.40 CLI), in statements and schemas.
sqlite3 :memory: 'SELECT "abc"'
sqlite3 d.db 'CREATE TABLE t(a, b DEFAULT "dflt"); INSERT INTO t(a) VALUES ("x"); SELECT * FROM t WHERE a = "x"; SELECT "a", a FROM t'
sqlite3 d.db 'CREATE INDEX i ON t(a) WHERE a <> "y"; SELECT count(*) FROM t WHERE a <> "y"'
sqlite3 d.db 'SELECT "nope" FROM t' 2>&1; echo "rc=$?"
