package sqldb

import "github.com/ncruces/go-sqlite3"

// CommitHook is called after each committed write transaction, on the
// writer connection, outside any transaction and with the write lock still
// held: no other write can start before it returns, so what it reads of the
// database (or of its write-ahead log) is exactly the state just committed.
// It must not call Write (that would wait for itself). When it fails, every
// Write of the batch fails with its error, although the transaction is
// committed locally: the hook decides whether a commit counts (the fleet
// ships it to a replicated log and fails the write when the log refuses).
type CommitHook func(c *sqlite3.Conn) error

// afterCommit runs the hook of a committed batch and hands its error to
// the batch's writes.
func (db *DB) afterCommit(c *Conn, ok []*writeReq) {
	if db.opts.OnCommit == nil {
		return
	}
	if err := db.opts.OnCommit(c.Conn); err != nil {
		for _, r := range ok {
			r.err = err
		}
	}
}
