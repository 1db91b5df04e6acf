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
// one. The copy is the whole database as the last commit left it (its
// files copied byte for byte while writes wait, see sqldb.DB.CopyTo),
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
	// crash leaves no fork rather than half of one. A marker file beside
	// the copy, made before it and removed after the rename, makes Open
	// refuse what a crash leaves at the temporary name.
	tmp := abs + ".partial"
	mark := tmp + unfinishedSuffix
	removeDB(tmp)
	if err := os.WriteFile(mark, []byte("an unfinished fork of checkpoint "+name+"\n"), 0o644); err != nil {
		return nil, &PathError{Op: op, Path: path, Code: EIO, Text: err.Error(), Err: err}
	}
	fail := func(err error) (*ForkStats, error) {
		removeDB(tmp)
		os.Remove(mark)
		return nil, ioErr(op, path, err)
	}
	// Flushed to disk only for a workspace whose commits are (SyncFull):
	// otherwise a fork, like a commit, survives a crash of the process but
	// not of the machine, and skips seconds of writing out a large copy.
	sync := func(p string) error {
		if !f.db.SyncFull() {
			return nil
		}
		return syncFile(p)
	}
	if err := sync(filepath.Dir(abs)); err != nil {
		return fail(err)
	}
	if err := f.db.CopyTo(ctx, tmp); err != nil {
		return fail(err)
	}
	st, err := forkRestore(ctx, tmp, name, f)
	if err == nil {
		err = sync(tmp)
	}
	if err == nil {
		err = os.Rename(tmp, abs)
	}
	if err == nil {
		err = sync(filepath.Dir(abs))
	}
	if err != nil {
		return fail(err)
	}
	os.Remove(mark)
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, ioErr(op, path, err)
	}
	return &ForkStats{Path: abs, Bytes: fi.Size(), Restore: *st}, nil
}

// unfinishedSuffix names the marker file beside a fork's copy while it is
// being made.
const unfinishedSuffix = "-unfinished"

// forkRestore opens the copy at path and restores checkpoint name in it.
func forkRestore(ctx context.Context, path, name string, f *FS) (*RestoreStats, error) {
	c, err := open(ctx, path, &Options{Limits: f.lim, Now: f.clock, GCWindow: f.gcWin})
	if err != nil {
		return nil, err
	}
	st, err := c.Restore(ctx, name, "")
	// Closing the last connection checkpoints the log into the file and
	// deletes it, so that the fork is one file: the rename moves all of it.
	if cerr := c.Close(); err == nil && cerr != nil {
		err = ioErr("fork", path, cerr)
	}
	return st, err
}

// refuseUnfinishedFork fails with EINVAL when path is a fork's copy that a
// crash left unfinished (its marker file is there).
func refuseUnfinishedFork(path string) error {
	if _, err := os.Lstat(path + unfinishedSuffix); err != nil {
		return nil
	}
	return perr("open", path, EINVAL, "the database is an unfinished fork (a fork was interrupted before it was renamed into place): delete it and fork again")
}

// removeDB deletes a database file and its logs.
func removeDB(path string) {
	for _, sfx := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(path + sfx)
	}
}

// syncFile flushes a file or directory to stable storage.
func syncFile(path string) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	err = fh.Sync()
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}
