package vfs

import (
	"errors"
	"sync/atomic"

	"github.com/ncruces/go-sqlite3"
)

// Commit is what a commit hook (DBOptions.OnCommit, nook.WithCommitHook)
// is given: the write transaction of the workspace database just
// committed, with the write lock still held, so that nothing else has
// changed the database since. It is valid only while the hook runs.
type Commit interface {
	// Path is the database file's name ("" for a database in memory).
	// Its write-ahead log, Path()+"-wal", ends with the frames of the
	// transactions committed since the last checkpoint, this one last.
	Path() string
	// Backup copies the database as of this commit, page for page (the
	// page numbers are those of the file and its log), to a new file at
	// path.
	Backup(path string) error
}

// errCommitDone: a Commit was used after its hook returned.
var errCommitDone = errors.New("vfs: commit handle used after its hook returned")

// commit is the Commit of one hook call.
type commit struct {
	conn *sqlite3.Conn
	path string
	done atomic.Bool
}

func (c *commit) Path() string { return c.path }

func (c *commit) Backup(path string) error {
	if c.done.Load() {
		return errCommitDone
	}
	return c.conn.Backup("main", path)
}

// commitHook adapts a hook on Commits to the database's hook on its
// writer connection.
func commitHook(path string, fn func(Commit) error) func(*sqlite3.Conn) error {
	if fn == nil {
		return nil
	}
	return func(conn *sqlite3.Conn) error {
		c := &commit{conn: conn, path: path}
		defer c.done.Store(true)
		return fn(c)
	}
}
