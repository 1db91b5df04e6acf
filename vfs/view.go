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
	// last is the most recent path this View resolved (following
	// symlinks): the snapshot cannot change, so it stays true.
	last     string
	lastRes  resolution
	lastErr  error
	resolved bool
}

// resolve resolves p (following symlinks), remembering the last answer.
func (v *View) resolve(p string) (resolution, error) {
	if !v.resolved || v.last != p {
		v.lastRes, v.lastErr = v.f.resolve(v.c, p, true)
		v.last, v.resolved = p, true
	}
	return v.lastRes, v.lastErr
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
	res, err := v.resolve(p)
	if err != nil {
		return nil, resolveErr("stat", p, err, "no such path")
	}
	if res.n == nil {
		return nil, perr("stat", p, ENOENT, "no such path")
	}
	fi := res.n.info(p)
	fi.ReadOnly = res.mnt != nil
	return fi, nil
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
	res, err := v.resolve(p)
	return readRangeRes(v.f, v.c, p, res, err, off, n)
}

// ContentHash returns the file's content hash, as FS.ContentHash.
func (v *View) ContentHash(name string) (string, error) {
	p, err := v.f.clean("hash", name)
	if err != nil {
		return "", err
	}
	res, err := v.resolve(p)
	return contentHashRes(v.c, "hash", p, res, err)
}
