package vfs

import (
	"context"
	"io/fs"

	"github.com/nookdev/nook/internal/sqldb"
)

// Batch is a group of operations that commit together, in one transaction
// and one revision, or not at all. It holds the workspace's write lock for
// its whole life, so what it reads cannot change before it writes: a
// read-modify-write in a Batch is safe against other goroutines and other
// processes.
type Batch struct {
	f *FS
	t *wtx
}

// Batch runs fn with a Batch and commits everything it did when fn returns
// nil; when fn returns an error (or an operation fails and fn returns that
// error) nothing it did is kept. fn must use only the Batch's methods, not
// the FS's, and should be quick: other writers wait for it.
func (f *FS) Batch(ctx context.Context, fn func(b *Batch) error) error {
	return f.update(ctx, "batch", "", func(t *wtx) error { return fn(&Batch{f: f, t: t}) })
}

// ReadFile returns the content of the file name (following symlinks) as the
// batch sees it, its own writes included.
func (b *Batch) ReadFile(name string) ([]byte, error) {
	const op = "read"
	p, err := b.f.clean(op, name)
	if err != nil {
		return nil, err
	}
	out, err := readRangeIn(b.f, b.t.c, p, 0, -1)
	return out, ioErr(op, p, err)
}

// Stat describes the node at name, following symlinks.
func (b *Batch) Stat(name string) (*FileInfo, error) { return b.stat("stat", name, true) }

// Lstat describes the node at name without following a final symlink.
func (b *Batch) Lstat(name string) (*FileInfo, error) { return b.stat("lstat", name, false) }

func (b *Batch) stat(op, name string, follow bool) (*FileInfo, error) {
	p, err := b.f.clean(op, name)
	if err != nil {
		return nil, err
	}
	return statIn(b.f, b.t.c, op, p, follow)
}

// statIn describes canonical path p within a transaction.
func statIn(f *FS, c *sqldb.Conn, op, p string, follow bool) (*FileInfo, error) {
	res, err := f.resolve(c, p, follow)
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

// WriteFile creates or replaces the file name with data, as FS.WriteFile.
func (b *Batch) WriteFile(name string, data []byte, opts *WriteOptions) error {
	const op = "write"
	p, err := b.f.clean(op, name)
	if err != nil {
		return err
	}
	if opts == nil {
		opts = &WriteOptions{}
	}
	if int64(len(data)) > b.f.lim.MaxFileSize {
		return b.f.tooBig(op, p)
	}
	return b.f.writeInTx(b.t, p, opts, int64(len(data)), func(t *wtx) ([]chunkRef, error) {
		var refs []chunkRef
		for off := 0; off < len(data); off += ChunkSize {
			ch := newChunk(data[off:min(off+ChunkSize, len(data))])
			id, err := t.putBlob(ch, 1)
			if err != nil {
				return nil, err
			}
			refs = append(refs, chunkRef{blob: id, size: int64(len(ch.data)), filter: ch.filter})
		}
		return refs, nil
	})
}

// MkdirAll creates name and its missing parents, as FS.MkdirAll.
func (b *Batch) MkdirAll(name string, perm fs.FileMode) error {
	p, err := b.f.clean("mkdir", name)
	if err != nil {
		return err
	}
	return b.t.mkdirAll("mkdir", p, UnixMode(perm))
}

// Remove removes name, as FS.Remove.
func (b *Batch) Remove(name string, opts *RemoveOptions) error {
	p, err := b.f.clean("rm", name)
	if err != nil {
		return err
	}
	if opts == nil {
		opts = &RemoveOptions{}
	}
	return b.f.removeInTx(b.t, p, opts)
}

// Rename moves oldname to newname, as FS.Rename.
func (b *Batch) Rename(oldname, newname string) error {
	from, err := b.f.clean("rename", oldname)
	if err != nil {
		return err
	}
	to, err := b.f.clean("rename", newname)
	if err != nil {
		return err
	}
	return b.f.renameInTx(b.t, from, to)
}
