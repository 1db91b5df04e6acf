package sqldb

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// The hook runs once per committed transaction, sees what was just
// committed, is not run for a rolled-back write, and its error fails the
// write of that commit.
func TestCommitHook(t *testing.T) {
	ctx := context.Background()
	var seen []int64
	var fail error
	db, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"), Options{OnCommit: func(c *sqlite3.Conn) error {
		st, _, err := c.Prepare("SELECT count(*) FROM t")
		if err == nil {
			defer st.Close()
			if st.Step() {
				seen = append(seen, st.ColumnInt64(0))
			}
		}
		return fail
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec := func(sql string) func(*Conn) error { return func(c *Conn) error { return c.Exec(sql) } }
	if err := db.Write(ctx, exec("CREATE TABLE t(x)")); err != nil {
		t.Fatal(err)
	}
	if err := db.Write(ctx, exec("INSERT INTO t VALUES (1)")); err != nil {
		t.Fatal(err)
	}
	bad := errors.New("no")
	if err := db.Write(ctx, func(c *Conn) error { c.Exec("INSERT INTO t VALUES (2)"); return bad }); err != bad {
		t.Fatalf("failing write: %v", err)
	}
	fail = errors.New("log refused")
	if err := db.Write(ctx, exec("INSERT INTO t VALUES (3)")); err != fail {
		t.Fatalf("write with a failing hook: %v, want %v", err, fail)
	}
	if want := []int64{0, 1, 2}; len(seen) != 3 || seen[0] != want[0] || seen[1] != want[1] || seen[2] != want[2] {
		t.Errorf("hook saw row counts %v, want %v (one per commit, none for the rollback)", seen, want)
	}
}
