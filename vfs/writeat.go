package vfs

import (
	"context"
)

// WriteAt writes data into the existing file name at byte off, in one
// transaction, extending it (with zeros between its end and off) when the
// write goes past its end; with off < 0 it appends at the end as it is in
// that transaction, so concurrent appends never overwrite each other. It
// returns the file's new size. It is pwrite(2) and O_APPEND without a
// handle: a caller that keeps no handles (a sandbox replaying its calls)
// uses it, and it honours ctx like every other operation.
func (f *FS) WriteAt(ctx context.Context, name string, data []byte, off int64) (int64, error) {
	return f.resize(ctx, "write", name, func(size int64) (int64, int64, error) {
		if off < 0 {
			off = size
		}
		return off, max(size, off+int64(len(data))), nil
	}, data)
}

// Truncate sets the size of the existing file name: shorter drops its
// tail, longer pads it with zeros. It is truncate(2).
func (f *FS) Truncate(ctx context.Context, name string, size int64) error {
	if size < 0 {
		return perr("truncate", name, EINVAL, "negative size")
	}
	_, err := f.resize(ctx, "truncate", name, func(int64) (int64, int64, error) { return size, size, nil }, nil)
	return err
}

// resize writes data at the offset span chooses and makes the file the
// size it chooses, given the current size.
func (f *FS) resize(ctx context.Context, op, name string, span func(size int64) (off, newSize int64, err error), data []byte) (int64, error) {
	p, err := f.clean(op, name)
	if err != nil {
		return 0, err
	}
	var size int64
	err = f.update(ctx, op, p, func(t *wtx) (err error) {
		size, err = t.resize(op, p, span, data)
		return err
	})
	if err != nil {
		return 0, err
	}
	return size, nil
}

// WriteAt writes data into the existing file name at byte off (at its end
// when off < 0), as FS.WriteAt, and returns the file's new size.
func (b *Batch) WriteAt(name string, data []byte, off int64) (int64, error) {
	p, err := b.f.clean("write", name)
	if err != nil {
		return 0, err
	}
	return b.t.resize("write", p, func(size int64) (int64, int64, error) {
		if off < 0 {
			off = size
		}
		return off, max(size, off+int64(len(data))), nil
	}, data)
}

// Truncate sets the size of the existing file name, as FS.Truncate.
func (b *Batch) Truncate(name string, size int64) error {
	p, err := b.f.clean("truncate", name)
	if err != nil {
		return err
	}
	if size < 0 {
		return perr("truncate", p, EINVAL, "negative size")
	}
	_, err = b.t.resize("truncate", p, func(int64) (int64, int64, error) { return size, size, nil }, nil)
	return err
}

// resize is FS.resize's change, in t, of the file at canonical path p.
func (t *wtx) resize(op, p string, span func(size int64) (off, newSize int64, err error), data []byte) (int64, error) {
	f := t.f
	var size int64
	err := func() error {
		if err := f.checkWritable(op, p); err != nil {
			return err
		}
		res, err := f.resolve(t.c, p, true)
		if err != nil {
			return resolveErr(op, p, err, "no such file")
		}
		if res.n == nil {
			return perr(op, p, ENOENT, "no such file")
		}
		if err := f.checkWritable(op, res.path); err != nil {
			return err
		}
		switch res.n.typ {
		case TypeDir:
			return perr(op, p, EISDIR, "is a directory")
		case TypeFile:
		default:
			return perr(op, p, EINVAL, "not a regular file")
		}
		// update flushed the pending chunks of open handles before this
		// transaction, so the node is current.
		nd := res.n
		off, newSize, err := span(nd.size)
		if err != nil {
			return err
		}
		if newSize > f.lim.MaxFileSize {
			return f.tooBig(op, p)
		}
		size = newSize
		if newSize == nd.size && len(data) == 0 {
			return nil
		}
		if err := t.rewrite(res.path, nd.inode, nd.size, off, data, newSize); err != nil {
			return err
		}
		t.dBytes += newSize - nd.size
		t.record(OpWrite, res.path, "", TypeFile)
		t.dirty = true
		return t.c.Exec(`UPDATE vfs_nodes SET size = ?1, mtime = ?2, ctime = ?2, rev = ?3 WHERE inode = ?4`,
			newSize, t.now, t.rev, nd.inode)
	}()
	if err != nil {
		return 0, err
	}
	return size, nil
}
