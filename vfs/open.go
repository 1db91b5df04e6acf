package vfs

import (
	"context"
	"io/fs"
	"sync"

	"github.com/nookdev/nook/internal/sqldb"
)

// openFile is what this process holds for a file that has open handles:
// how many there are and the writes they made that are not committed yet.
// All handles on one file share it, so each sees the others' writes at once
// and two handles' buffers can never overwrite each other.
type openFile struct {
	inode   int64
	handles int // guarded by FS.openMu

	mu   sync.Mutex // guards the fields below
	path string     // the name the last writer used, for errors and changes
	wb   *wbuf      // pending writes to one chunk
	size int64      // the file's size including wb (valid while wb != nil)
	err  error      // a failed flush no handle has been told about yet
}

// wbuf is one chunk's content with pending writes applied.
type wbuf struct {
	idx  int64
	data []byte
}

func errClosed(op, path string) error {
	return &PathError{Op: op, Path: path, Code: EBADF, Text: "file already closed", Err: fs.ErrClosed}
}

// takeErr returns, once, a flush failure that happened on another caller's
// behalf, so that a handle learns its writes were lost (as fsync and close
// report write-back errors).
func (st *openFile) takeErr() error {
	err := st.err
	st.err = nil
	return err
}

// sizeLocked returns the file's size including pending writes.
func (st *openFile) sizeLocked(f *FS) (int64, error) {
	if st.wb != nil {
		return st.size, nil
	}
	var size int64
	err := f.db.Read(context.Background(), func(c *sqldb.Conn) error {
		nd, err := getNode(c, st.inode)
		if nd != nil {
			size = nd.size
		}
		return err
	})
	return size, ioErr("stat", st.path, err)
}

// writeLocked applies a write to the buffer, flushing it whenever the write
// moves on to another chunk.
func (st *openFile) writeLocked(f *FS, path string, p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.lim.MaxFileSize {
		return 0, f.tooBig("write", path)
	}
	st.path = path
	written := 0
	for len(p) > 0 {
		idx := off / ChunkSize
		if st.wb == nil || st.wb.idx != idx {
			if err := st.flushLocked(f, context.Background()); err != nil {
				return written, err
			}
			if err := st.loadLocked(f, idx, off, len(p)); err != nil {
				return written, err
			}
		}
		in := int(off - idx*ChunkSize)
		n := min(len(p), ChunkSize-in)
		if need := in + n; need > len(st.wb.data) {
			st.wb.data = append(st.wb.data, make([]byte, need-len(st.wb.data))...)
		}
		copy(st.wb.data[in:], p[:n])
		st.size = max(st.size, idx*ChunkSize+int64(len(st.wb.data)))
		p, off, written = p[n:], off+int64(n), written+n
	}
	return written, nil
}

// loadLocked starts buffering chunk idx, reading its stored bytes unless the
// coming write replaces all of them.
func (st *openFile) loadLocked(f *FS, idx, off int64, n int) error {
	var data []byte
	var size int64
	err := f.db.Read(context.Background(), func(c *sqldb.Conn) error {
		nd, err := getNode(c, st.inode)
		if err != nil || nd == nil {
			return err
		}
		size = nd.size
		start := idx * ChunkSize
		if start >= size || (off == start && int64(n) >= min(ChunkSize, size-start)) {
			return nil
		}
		data, err = readChunk(c, st.inode, idx)
		return err
	})
	if err != nil {
		return ioErr("write", st.path, err)
	}
	st.wb = &wbuf{idx: idx, data: data}
	st.size = size
	f.dirty.Add(1)
	return nil
}

// flushLocked commits the pending chunk. The buffer is gone afterwards
// whether or not the commit succeeded.
func (st *openFile) flushLocked(f *FS, ctx context.Context) error {
	wb := st.wb
	if wb == nil {
		return nil
	}
	st.wb = nil
	f.dirty.Add(-1)
	return f.updateRaw(ctx, "write", st.path, func(t *wtx) error {
		nd, err := getNode(t.c, st.inode)
		if err != nil || nd == nil {
			return err
		}
		start := wb.idx * ChunkSize
		newSize := max(nd.size, start+int64(len(wb.data)))
		if err := t.rewrite(st.path, st.inode, nd.size, start, wb.data, newSize); err != nil {
			return err
		}
		if nd.nlink > 0 {
			t.dBytes += newSize - nd.size
			t.record(OpWrite, st.path, "", TypeFile)
		}
		t.dirty = true
		return t.c.Exec(`UPDATE vfs_nodes SET size = ?1, mtime = ?2, ctime = ?2, rev = ?3 WHERE inode = ?4`,
			newSize, t.now, t.rev, st.inode)
	})
}

// flushAll commits every handle's pending writes before another operation
// reads or writes. A failure stays with the file's handles (see takeErr)
// rather than failing the unrelated operation that triggered the flush, and
// flushing ignores the cancellation of the caller's context for the same
// reason (but keeps its values: inside a joined transaction, the flush
// joins it too).
func (f *FS) flushAll(ctx context.Context) {
	ctx = context.WithoutCancel(ctx)
	f.openMu.Lock()
	files := make([]*openFile, 0, len(f.open))
	for _, st := range f.open {
		files = append(files, st)
	}
	f.openMu.Unlock()
	for _, st := range files {
		st.mu.Lock()
		if err := st.flushLocked(f, ctx); err != nil && st.err == nil {
			st.err = err
		}
		st.mu.Unlock()
	}
}
