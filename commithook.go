package nook

import "github.com/nookdev/nook/vfs"

// Commit is what a commit hook is given: the write transaction just
// committed (see vfs.Commit). It is valid only while the hook runs.
type Commit = vfs.Commit

// WithCommitHook runs fn after every committed write transaction of the
// workspace's database (files and journal alike), with the write lock
// held, so that fn sees exactly the state just committed and no other
// write starts before it returns. fn must not write to the workspace. An
// error from fn fails the writes of that commit (the transaction stays
// committed in the local file). The fleet uses it to ship each commit to a
// replicated log before a call is acknowledged, and Commit.Backup for its
// snapshots.
func WithCommitHook(fn func(c Commit) error) Option {
	return func(c *config) { c.onCommit = fn }
}
