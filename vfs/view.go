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
	// symlinks unless lastNoFollow): the snapshot cannot change, so it
	// stays true. lastBoth says the answer holds either way (the path
	// ends at no symlink).
	last         string
	lastRes      resolution
	lastErr      error
	resolved     bool
	lastNoFollow bool
	lastBoth     bool
}

// resolve resolves p (following symlinks), remembering the last answer.
func (v *View) resolve(p string) (resolution, error) { return v.resolveAs(p, true) }

// resolveAs resolves p, following a final symlink when follow is set,
// remembering the last answer.
func (v *View) resolveAs(p string, follow bool) (resolution, error) {
	if !v.resolved || v.last != p || (v.lastNoFollow == follow && !v.lastBoth) {
		v.lastRes, v.lastErr = v.f.resolve(v.c, p, follow)
		v.last, v.resolved, v.lastNoFollow, v.lastBoth = p, true, !follow, false
	}
	return v.lastRes, v.lastErr
}

// remember records res as the resolution of p, which ends at no symlink
// (so following or not is the same).
func (v *View) remember(p string, res resolution) {
	v.last, v.lastRes, v.lastErr, v.resolved, v.lastNoFollow, v.lastBoth = p, res, nil, true, false, true
}

// View runs fn with a View. fn must use only the View's methods and should
// be quick: the snapshot holds back checkpoints while it lives.
func (f *FS) View(ctx context.Context, fn func(v *View) error) error {
	return f.view(ctx, "view", "", func(c *sqldb.Conn) error { return fn(&View{f: f, c: c}) })
}

// Stat describes the node at name, following symlinks.
func (v *View) Stat(name string) (*FileInfo, error) { return v.stat("stat", name, true) }

// Lstat describes the node at name without following a final symlink.
func (v *View) Lstat(name string) (*FileInfo, error) { return v.stat("lstat", name, false) }

func (v *View) stat(op, name string, follow bool) (*FileInfo, error) {
	p, err := v.f.clean(op, name)
	if err != nil {
		return nil, err
	}
	res, err := v.resolveAs(p, follow)
	if err != nil {
		return nil, resolveErr(op, p, err, "no such path")
	}
	if res.n == nil {
		return nil, perr(op, p, ENOENT, "no such path")
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
