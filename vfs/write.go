package vfs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
)

// WriteFile creates or replaces the file name with data. An existing file
// keeps its inode and, unless opts.Mode is set, its mode. A final symlink is
// followed (a dangling one creates its target) unless opts.Exclusive is set.
// The file is replaced atomically: readers see the old or the new content.
func (f *FS) WriteFile(ctx context.Context, name string, data []byte, opts *WriteOptions) error {
	if len(data) > ChunkSize {
		_, err := f.writeFrom(ctx, name, bytes.NewReader(data), opts, int64(len(data)))
		return err
	}
	var ch chunk
	if len(data) > 0 {
		ch = newChunk(data)
	}
	return f.commitWrite(ctx, name, opts, int64(len(data)), func(t *wtx) ([]chunkRef, error) {
		if len(data) == 0 {
			return nil, nil
		}
		id, err := t.putBlob(ch, 1)
		return []chunkRef{{blob: id, size: int64(len(data)), filter: ch.filter}}, err
	})
}

// WriteFrom creates or replaces the file name with everything read from r,
// streaming: at most one chunk is held in memory. Chunks are stored as they
// arrive and the file switches to its new content in one final transaction,
// so a failure or crash midway leaves the old file untouched. It returns the
// number of bytes written.
func (f *FS) WriteFrom(ctx context.Context, name string, r io.Reader, opts *WriteOptions) (int64, error) {
	return f.writeFrom(ctx, name, r, opts, -1)
}

// writeFrom is WriteFrom with the size when the caller knows it (else -1),
// so that limits can refuse the write before any chunk is stored.
func (f *FS) writeFrom(ctx context.Context, name string, r io.Reader, opts *WriteOptions, size int64) (written int64, err error) {
	const op = "write"
	p, err := f.clean(op, name)
	if err != nil {
		return 0, err
	}
	if size > f.lim.MaxFileSize {
		return 0, f.tooBig(op, p)
	}
	bufp := chunkBufs.Get().(*[]byte)
	defer chunkBufs.Put(bufp)
	buf := *bufp
	n, rerr := io.ReadFull(r, buf)
	if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
		// Fits in one chunk: one transaction, which checks everything.
		return int64(n), f.WriteFile(ctx, p, buf[:n], opts)
	}
	if rerr != nil {
		return 0, &PathError{Op: op, Path: p, Code: EIO, Text: "reading source failed (" + rerr.Error() + ")", Err: rerr}
	}
	// Several chunks: fail now if the write cannot succeed, before storing
	// any of them.
	if err := f.precheckWrite(ctx, p, opts, size); err != nil {
		return 0, err
	}
	var refs []chunkRef
	var total int64
	defer func() {
		if err != nil {
			f.unstage(refs)
		}
	}()
	for {
		total += int64(n)
		if total > f.lim.MaxFileSize {
			return total, f.tooBig(op, p)
		}
		ch := newChunk(buf[:n])
		var id int64
		err := f.updateRaw(ctx, op, p, func(t *wtx) error {
			var err error
			id, err = t.putBlob(ch, 0)
			return err
		})
		if err != nil {
			return total, err
		}
		refs = append(refs, chunkRef{blob: id, size: int64(n), filter: ch.filter})
		n, rerr = io.ReadFull(r, buf)
		if rerr == io.EOF {
			break
		}
		if rerr != nil && rerr != io.ErrUnexpectedEOF {
			return total, &PathError{Op: op, Path: p, Code: EIO, Text: "reading source failed (" + rerr.Error() + ")", Err: rerr}
		}
		if err := ctx.Err(); err != nil {
			return total, err
		}
	}
	return total, f.commitWrite(ctx, p, opts, total, func(t *wtx) ([]chunkRef, error) {
		for _, r := range refs {
			if err := t.refBlob(r.blob, 1); err != nil {
				return nil, err
			}
			if t.c.Changes() == 0 {
				return nil, perr(op, p, EIO, "a staged chunk was collected before the write finished; retry")
			}
		}
		return refs, nil
	})
}

// chunkBufs recycles the chunk-sized buffers streaming writes read into.
var chunkBufs = sync.Pool{New: func() any { b := make([]byte, ChunkSize); return &b }}

func (f *FS) tooBig(op, p string) error {
	return perr(op, p, EFBIG, fmt.Sprintf("file exceeds MaxFileSize (%d bytes)", f.lim.MaxFileSize))
}

// precheckWrite fails early, before a stream is consumed, when a write to p
// cannot succeed: a bad target, or (size >= 0) a size over the quota.
func (f *FS) precheckWrite(ctx context.Context, p string, opts *WriteOptions, size int64) error {
	return f.update(ctx, "write", p, func(t *wtx) error {
		res, err := f.writeTarget(t, p, opts, true)
		if err != nil || size < 0 {
			return err
		}
		grow := size
		if res.n != nil {
			grow -= res.n.size
		}
		if grow > 0 && t.bytes+grow > f.lim.MaxTotalBytes {
			return f.full(p)
		}
		return nil
	})
}

func (f *FS) full(p string) error {
	return perr("write", p, ENOSPC, fmt.Sprintf("workspace exceeds MaxTotalBytes (%d bytes)", f.lim.MaxTotalBytes))
}

// unstage deletes chunks a failed streaming write stored and nothing else
// references. Another writer staging identical content at the same moment
// would find its chunk gone when it links it, and fail cleanly (EIO, retry).
func (f *FS) unstage(refs []chunkRef) {
	if len(refs) == 0 {
		return
	}
	f.updateRaw(context.Background(), "write", "", func(t *wtx) error {
		for _, r := range refs {
			if err := t.c.Exec(`DELETE FROM vfs_blob_data WHERE id = ?1 AND (SELECT refs FROM vfs_blobs WHERE id = ?1) = 0`, r.blob); err != nil {
				return err
			}
			if err := t.c.Exec(`DELETE FROM vfs_blobs WHERE id = ? AND refs = 0`, r.blob); err != nil {
				return err
			}
		}
		return nil
	})
}

// commitWrite points the file at p to the chunks content returns, creating
// it when needed, in one transaction.
func (f *FS) commitWrite(ctx context.Context, name string, opts *WriteOptions, size int64, content func(t *wtx) ([]chunkRef, error)) error {
	const op = "write"
	p, err := f.clean(op, name)
	if err != nil {
		return err
	}
	if opts == nil {
		opts = &WriteOptions{}
	}
	if size > f.lim.MaxFileSize {
		return f.tooBig(op, p)
	}
	return f.update(ctx, op, p, func(t *wtx) error { return f.writeInTx(t, p, opts, size, content) })
}

// writeInTx points the file at canonical path p to the chunks content
// returns (size bytes in all), creating it when needed.
func (f *FS) writeInTx(t *wtx, p string, opts *WriteOptions, size int64, content func(t *wtx) ([]chunkRef, error)) error {
	res, err := f.writeTarget(t, p, opts, false)
	if err != nil {
		return err
	}
	refs, err := content(t)
	if err != nil {
		return err
	}
	if n := res.n; n != nil {
		if err := t.replaceContent(n.inode, refs); err != nil {
			return err
		}
		mode := n.mode
		if u := UnixMode(opts.Mode); u != 0 {
			mode = u
		}
		t.dBytes += size - n.size
		t.record(OpWrite, res.path, "", TypeFile)
		return t.c.Exec(`UPDATE vfs_nodes SET size = ?1, mode = ?2, mtime = ?3, ctime = ?4, rev = ?5 WHERE inode = ?6`,
			size, mode, modTime(opts, t.now), t.now, t.rev, n.inode)
	}
	mode := defaultFileMode
	if u := UnixMode(opts.Mode); u != 0 {
		mode = u
	}
	inode, err := t.createNode(res, TypeFile, mode, size, "")
	if err != nil {
		return err
	}
	if !opts.ModTime.IsZero() {
		if err := t.c.Exec(`UPDATE vfs_nodes SET mtime = ? WHERE inode = ?`, opts.ModTime.UnixNano(), inode); err != nil {
			return err
		}
	}
	return t.addContent(inode, refs)
}

func modTime(opts *WriteOptions, now int64) int64 {
	if opts.ModTime.IsZero() {
		return now
	}
	return opts.ModTime.UnixNano()
}

// writeTarget resolves where a file write to p lands and checks that it may.
// With dryRun, missing parents that MkdirAll would create are not created.
func (f *FS) writeTarget(t *wtx, p string, opts *WriteOptions, dryRun bool) (resolution, error) {
	const op = "write"
	if opts == nil {
		opts = &WriteOptions{}
	}
	if p == "/" {
		return resolution{}, perr(op, p, EISDIR, "cannot write to the root directory")
	}
	if err := f.checkWritable(op, p); err != nil {
		return resolution{}, err
	}
	if opts.MkdirAll && !dryRun {
		dir, _ := split(p)
		if err := t.mkdirAll(op, dir, defaultDirMode); err != nil {
			if Code(err) == EEXIST { // a parent is not a directory
				return resolution{}, perr(op, p, ENOTDIR, "parent path segment is not a directory")
			}
			return resolution{}, err
		}
	}
	res, err := f.resolve(t.c, p, !opts.Exclusive && !opts.NoFollow)
	if err != nil {
		if dryRun && opts.MkdirAll && errors.Is(err, errParentMissing) {
			return resolution{}, nil
		}
		return resolution{}, resolveErr(op, p, err, "parent directory missing")
	}
	if err := f.checkWritable(op, res.path); err != nil {
		return resolution{}, err
	}
	if n := res.n; n != nil {
		switch {
		case opts.Exclusive:
			return resolution{}, perr(op, p, EEXIST, "path exists")
		case n.typ == TypeDir:
			return resolution{}, perr(op, p, EISDIR, "path is a directory")
		case n.typ == TypeSymlink: // NoFollow: the file replaces the link
			if dryRun {
				res.n = nil
				return res, nil
			}
			if err := t.unlink(res); err != nil {
				return resolution{}, err
			}
			t.record(OpRemove, res.path, "", TypeSymlink)
			res.n = nil
		}
		return res, nil
	}
	return res, f.checkName(op, res.path)
}

// createNode adds a node named res.name to directory res.parent.
func (t *wtx) createNode(res resolution, typ Type, mode uint32, size int64, target string) (int64, error) {
	var tgt any
	if typ == TypeSymlink {
		tgt = target
	}
	if err := t.c.Exec(`INSERT INTO vfs_nodes(type, mode, size, nlink, atime, mtime, ctime, rev, target)
		VALUES (?, ?, ?, 1, ?4, ?4, ?4, ?, ?)`, int64(typ), mode, size, t.now, t.rev, tgt); err != nil {
		return 0, err
	}
	inode := t.c.LastInsertRowID()
	if err := t.c.Exec(`INSERT INTO vfs_dirents(parent, name, inode) VALUES (?, ?, ?)`, res.parent, res.name, inode); err != nil {
		return 0, err
	}
	t.dNodes++
	if typ == TypeFile {
		t.dBytes += size
	}
	t.record(OpCreate, res.path, "", typ)
	return inode, t.touchDir(res.parent)
}

// touchDir updates a directory's times and revision after its entries changed.
func (t *wtx) touchDir(inode int64) error {
	t.dirty = true
	return t.c.Exec(`UPDATE vfs_nodes SET mtime = ?1, ctime = ?1, rev = ?2 WHERE inode = ?3`, t.now, t.rev, inode)
}
