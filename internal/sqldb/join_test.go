package sqldb

import (
	"context"
	"errors"
	"testing"
)

// Writes and reads made with a joined context run inside the caller's
// transaction: a failing one undoes only itself, reads see uncommitted
// rows, and everything commits or rolls back with the outer transaction.
func TestJoin(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	boom := errors.New("boom")
	err := db.Write(ctx, func(c *Conn) error {
		jctx := Join(ctx, db, c)
		if err := db.Write(jctx, func(c *Conn) error { return c.Exec(`INSERT INTO kv VALUES ('a', 1)`) }); err != nil {
			return err
		}
		err := db.Write(jctx, func(c *Conn) error {
			if err := c.Exec(`INSERT INTO kv VALUES ('b', 2)`); err != nil {
				return err
			}
			return boom
		})
		if err != boom {
			t.Errorf("failing joined write: %v", err)
		}
		var n int
		db.Read(jctx, func(c *Conn) error {
			s, _ := c.Query(`SELECT count(*) FROM kv`)
			s.Step()
			n = s.ColumnInt(0)
			return Done(s, nil)
		})
		if n != 1 {
			t.Errorf("joined read sees %d rows, want 1", n)
		}
		if ok, _ := db.TryRead(jctx, func(*Conn) error { return nil }); ok {
			t.Error("TryRead ran on a spare connection inside a joined transaction")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, db); n != 1 {
		t.Errorf("after commit: %d rows", n)
	}
	// The outer transaction failing undoes the joined writes.
	db.Write(ctx, func(c *Conn) error {
		db.Write(Join(ctx, db, c), func(c *Conn) error { return c.Exec(`INSERT INTO kv VALUES ('c', 3)`) })
		return boom
	})
	if n := count(t, db); n != 1 {
		t.Errorf("after rollback: %d rows", n)
	}
}

// A read whose context is cancelled mid-transaction leaves its connection
// usable: the next reads on the pool work.
func TestReadCancelledMidTransaction(t *testing.T) {
	db := openTest(t)
	for i := range 20 {
		ctx, cancel := context.WithCancel(context.Background())
		db.Read(ctx, func(c *Conn) error {
			cancel()
			s, err := c.Query(`SELECT count(*) FROM kv`)
			if err == nil {
				s.Step()
				Done(s, nil)
			}
			return err
		})
		if n := count(t, db); n != 0 {
			t.Fatalf("round %d: count %d", i, n)
		}
	}
}
