package replay_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
	"github.com/nookdev/nook"
)

// workspaceFiles returns every file under /workspace of ws, by path.
func workspaceFiles(t testing.TB, ws *nook.Workspace) map[string]string {
	t.Helper()
	files := map[string]string{}
	fsys := ws.FS().IOFS()
	err := fs.WalkDir(fsys, "workspace", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			files[p+"/"] = ""
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		files[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatalf("listing the workspace: %v", err)
	}
	return files
}

// integrityCheck opens the database file read-only, with SQLite directly,
// and fails t unless PRAGMA integrity_check says ok.
func integrityCheck(t testing.TB, db string) {
	t.Helper()
	c, err := sqlite3.OpenFlags(db, sqlite3.OPEN_READONLY)
	if err != nil {
		ents, _ := os.ReadDir(filepath.Dir(db))
		t.Fatalf("integrity check: open %s: %v %v", db, err, ents)
	}
	defer c.Close()
	c.BusyTimeout(2 * time.Second)
	s, _, err := c.Prepare(`PRAGMA integrity_check`)
	if err != nil {
		ents, _ := os.ReadDir(filepath.Dir(db))
		t.Fatalf("integrity check: %v %v", err, ents)
	}
	defer s.Close()
	var msgs []string
	for s.Step() {
		msgs = append(msgs, s.ColumnText(0))
	}
	if err := s.Err(); err != nil {
		ents, _ := os.ReadDir(filepath.Dir(db))
		t.Fatalf("integrity check: %v %v", err, ents)
	}
	if len(msgs) != 1 || msgs[0] != "ok" {
		t.Fatalf("integrity check of %s: %q", db, msgs)
	}
}

// journaledCall is a call as the journal of a run holds it.
type journaledCall struct {
	Seq  int64
	Kind string
	Op   string
	Done bool
}

// journalState reads what the database holds of run id, with SQLite
// directly (the workspace is not open): its journaled calls, whether it
// has finished, and how many output events it stored.
func journalState(t testing.TB, db, id string) (calls []journaledCall, finished bool) {
	t.Helper()
	c, err := sqlite3.Open(db)
	if err != nil {
		t.Fatalf("open %s: %v", db, err)
	}
	defer c.Close()
	s, _, err := c.Prepare(`SELECT seq, kind, op, done FROM journal_calls WHERE run = ? ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	s.BindText(1, id)
	for s.Step() {
		calls = append(calls, journaledCall{s.ColumnInt64(0), s.ColumnText(1), s.ColumnText(2), s.ColumnBool(3)})
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, _, err = c.Prepare(`SELECT finished IS NOT NULL FROM journal_runs WHERE id = ?`)
	if err != nil {
		t.Fatal(err)
	}
	s.BindText(1, id)
	if s.Step() {
		finished = s.ColumnBool(0)
	}
	s.Close()
	return calls, finished
}

var _ = context.Background
