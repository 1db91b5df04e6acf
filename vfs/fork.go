package vfs

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/nookdev/nook/internal/sqldb"
)

// ForkStats says what a fork wrote.
type ForkStats struct {
	Path    string       `json:"path"`    // the new database file
	Bytes   int64        `json:"bytes"`   // its size
	Restore RestoreStats `json:"restore"` // how the copy was brought to the checkpoint
}

// Fork writes a new workspace database at path (which must not exist:
// EEXIST) whose tree is exactly checkpoint name's, to diverge from this
// one. The copy is the whole database as one read transaction sees it
// (SQLite's VACUUM INTO: compacted, content shared by hash within it),
// then restored to the checkpoint as one revision; it keeps every
// checkpoint, so the two workspaces can be compared by name, and the
// rest of the database (run records) as it was. A missing checkpoint is
// ENOENT; an in-memory workspace cannot be forked (EINVAL).
//
// The runtime refuses a fork while a run is in flight (EBUSY), since the
// copy would hold it as interrupted; a caller of this method directly
// owns that check.
func (f *FS) Fork(ctx context.Context, name, path string) (*ForkStats, error) {
	const op = "fork"
	if f.db.Memory() {
		return nil, perr(op, path, EINVAL, "an in-memory workspace cannot be forked")
	}
	err := f.view(ctx, op, name, func(c *sqldb.Conn) error {
		ck, err := findCheckpoint(c, name)
		if err == nil && ck == nil {
			err = perr(op, name, ENOENT, "no such checkpoint")
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, perr(op, path, EINVAL, err.Error())
	}
	if _, err := os.Lstat(abs); err == nil {
		return nil, perr(op, path, EEXIST, "file exists")
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, &PathError{Op: op, Path: path, Code: EIO, Text: err.Error(), Err: err}
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, &PathError{Op: op, Path: path, Code: EIO, Text: err.Error(), Err: err}
	}
	// Built beside its place and renamed into it once whole, so that a
	// crash leaves no fork rather than half of one.
	tmp := abs + ".partial"
	os.Remove(tmp)
	if err := f.db.VacuumInto(ctx, tmp); err != nil {
		os.Remove(tmp)
		return nil, ioErr(op, path, err)
	}
	st, err := forkRestore(ctx, tmp, name, f)
	if err == nil {
		err = os.Rename(tmp, abs)
	}
	if err != nil {
		os.Remove(tmp)
		return nil, ioErr(op, path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, ioErr(op, path, err)
	}
	return &ForkStats{Path: abs, Bytes: fi.Size(), Restore: *st}, nil
}

// forkRestore opens the copy at path and restores checkpoint name in it.
func forkRestore(ctx context.Context, path, name string, f *FS) (*RestoreStats, error) {
	c, err := Open(ctx, path, &Options{Limits: f.lim, Now: f.clock, GCWindow: f.gcWin})
	if err != nil {
		return nil, err
	}
	st, err := c.Restore(ctx, name, "")
	if cerr := c.Close(); err == nil && cerr != nil {
		err = ioErr("fork", path, cerr)
	}
	return st, err
}
