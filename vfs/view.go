package vfs

import (
	"context"

	"github.com/nookdev/nook/internal/sqldb"
)

// View is a read-only snapshot of the workspace: every read through one
// View sees the same state, and they share one read transaction, which is
// cheaper than one per call.
type View struct {
	f *FS
	c *sqldb.Conn
}

// View runs fn with a View. fn must use only the View's methods and should
// be quick: the snapshot holds back checkpoints while it lives.
func (f *FS) View(ctx context.Context, fn func(v *View) error) error {
	return f.view(ctx, "view", "", func(c *sqldb.Conn) error { return fn(&View{f: f, c: c}) })
}

// Stat describes the node at name, following symlinks.
func (v *View) Stat(name string) (*FileInfo, error) {
	p, err := v.f.clean("stat", name)
	if err != nil {
		return nil, err
	}
	return statIn(v.f, v.c, "stat", p, true)
}

// ReadRange returns up to n bytes of the file name from byte off, as
// FS.ReadRange.
func (v *View) ReadRange(name string, off, n int64) ([]byte, error) {
	p, err := v.f.clean("read", name)
	if err != nil {
		return nil, err
	}
	if off < 0 || n < 0 {
		return nil, perr("read", p, EINVAL, "invalid read range")
	}
	return readRangeIn(v.f, v.c, p, off, n)
}

// ContentHash returns the file's content hash, as FS.ContentHash.
func (v *View) ContentHash(name string) (string, error) {
	p, err := v.f.clean("hash", name)
	if err != nil {
		return "", err
	}
	return contentHash(v.f, v.c, "hash", p)
}
