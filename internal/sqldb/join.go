package sqldb

import "context"

// A write transaction can be joined: code running inside a Write callback
// passes Join(ctx, db, c) to other code (another package's operations), and
// every Write or Read of db made with that context runs on c, inside the
// same transaction, instead of waiting for the writer (which the caller
// holds: waiting would deadlock). A joined Write runs in a savepoint, so its
// failure undoes only its own effects; everything commits, or not, with the
// outer transaction. This is how an operation and the record of it commit
// together.

type joinKey struct{}

type joined struct {
	db *DB
	c  *Conn
}

// Join returns ctx carrying c, the connection of a write transaction of db
// that the caller is running in.
func Join(ctx context.Context, db *DB, c *Conn) context.Context {
	return context.WithValue(ctx, joinKey{}, joined{db, c})
}

// joinedConn returns the connection of db's transaction that ctx joined,
// or nil.
func (db *DB) joinedConn(ctx context.Context) *Conn {
	j, ok := ctx.Value(joinKey{}).(joined)
	if !ok || j.db != db {
		return nil
	}
	return j.c
}

// inSavepoint runs fn on c inside a savepoint of the current transaction.
func inSavepoint(c *Conn, fn func(*Conn) error) error {
	if err := c.Exec("SAVEPOINT joined"); err != nil {
		return err
	}
	err, p := call(fn, c)
	if err != nil || p != nil {
		c.Exec("ROLLBACK TO joined; RELEASE joined")
		if p != nil {
			panic(p)
		}
		return err
	}
	return c.Exec("RELEASE joined")
}
