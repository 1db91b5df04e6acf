package nook

import "github.com/ncruces/go-sqlite3"

// WithCommitHook runs fn after every committed write transaction of the
// workspace's database (files and journal alike), on its writer connection
// with the write lock held, so that fn sees exactly the state just
// committed and no other write starts before it returns. fn must not write
// to the workspace. An error from fn fails the writes of that commit (the
// transaction stays committed in the local file). The fleet uses it to ship
// each commit to a replicated log before a call is acknowledged.
func WithCommitHook(fn func(c *sqlite3.Conn) error) Option {
	return func(c *config) { c.onCommit = fn }
}
