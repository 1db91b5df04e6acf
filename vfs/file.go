package vfs

import (
	"context"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/nookdev/nook/internal/sqldb"
)

// File is an open file or directory: a handle on a node, not on a path, so
// it keeps working after the node is renamed or removed (a removed file
// lives on until its last handle in this process closes).
//
// Writes are buffered one chunk at a time and reach the database when the
// handle moves to another chunk, reads, seeks from the end, syncs, truncates
// or closes, and before any other operation of the same FS reads or writes:
// within a process every read sees every write. Other processes see a
// handle's writes once they are flushed (Sync or Close).
//
// File implements io.Reader, io.ReaderAt, io.Writer, io.WriterAt, io.Seeker,
// io.WriterTo, io.Closer, fs.File and fs.ReadDirFile.
type File struct {
	f     *FS
	path  string
	inode int64
	kind  Type
	flag  int
	mnt   *mountRef

	st *openFile // shared with the other handles on the same file

	mu     sync.Mutex // guards off, closed and the directory cursor
	off    int64
	closed bool

	rcMu sync.Mutex
	rc   readCache

	dirAfter string // last name returned by ReadDir
	dirDone  bool
	dirMnt   []Entry // a mounted directory's entries, read once per pass
}

// Open opens name for reading.
func (f *FS) Open(ctx context.Context, name string) (*File, error) {
	return f.OpenFile(ctx, name, os.O_RDONLY, 0)
}

// NewReader opens name for reading; the File is an io.ReadSeeker, an
// io.ReaderAt and an io.WriterTo that streams one chunk at a time.
func (f *FS) NewReader(ctx context.Context, name string) (*File, error) { return f.Open(ctx, name) }

// OpenFile opens name with os.O_* flags: O_RDONLY, O_WRONLY or O_RDWR, plus
// O_CREATE (with perm, 0 meaning DefaultFileMode; only the bits Chmod sets
// count), O_EXCL, O_TRUNC and O_APPEND. Directories open read-only, for
// ReadDir.
func (f *FS) OpenFile(ctx context.Context, name string, flag int, perm fs.FileMode) (*File, error) {
	const op = "open"
	p, err := f.clean(op, name)
	if err != nil {
		return nil, err
	}
	acc := flag & (os.O_RDONLY | os.O_WRONLY | os.O_RDWR)
	writable := acc == os.O_WRONLY || acc == os.O_RDWR
	h := &File{f: f, path: p, flag: flag}
	open := func(c *sqldb.Conn, t *wtx) error {
		excl := flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0
		res, err := f.resolve(c, p, !excl)
		if err != nil {
			return resolveErr(op, p, err, "no such file")
		}
		if res.mnt != nil && (writable || flag&(os.O_CREATE|os.O_TRUNC) != 0) {
			return f.checkWritable(op, res.path)
		}
		n := res.n
		switch {
		case n == nil && flag&os.O_CREATE == 0:
			return perr(op, p, ENOENT, "no such file")
		case n == nil:
			if err := f.checkWritable(op, res.path); err != nil {
				return err
			}
			if err := f.checkName(op, res.path); err != nil {
				return err
			}
			mode := UnixMode(perm)
			if mode == 0 {
				mode = defaultFileMode
			}
			inode, err := t.createNode(res, TypeFile, mode, 0, "")
			if err != nil {
				return err
			}
			h.inode, h.kind = inode, TypeFile
			return nil
		case excl:
			return perr(op, p, EEXIST, "path exists")
		case n.typ == TypeDir && writable:
			return perr(op, p, EISDIR, "path is a directory")
		case n.typ == TypeFile && writable && flag&os.O_TRUNC != 0 && n.size > 0:
			if err := f.checkWritable(op, res.path); err != nil {
				return err
			}
			if err := t.truncate(p, n.inode, n.size, 0); err != nil {
				return err
			}
			t.dBytes -= n.size
			t.record(OpWrite, res.path, "", TypeFile)
			if err := t.c.Exec(`UPDATE vfs_nodes SET size = 0, mtime = ?1, ctime = ?1, rev = ?2 WHERE inode = ?3`, t.now, t.rev, n.inode); err != nil {
				return err
			}
		}
		if writable {
			if err := f.checkWritable(op, res.path); err != nil {
				return err
			}
		}
		h.inode, h.kind, h.mnt = n.inode, n.typ, res.mnt
		return nil
	}
	if writable || flag&(os.O_CREATE|os.O_TRUNC) != 0 {
		err = f.update(ctx, op, p, func(t *wtx) error { return open(t.c, t) })
	} else {
		err = f.view(ctx, op, p, func(c *sqldb.Conn) error { return open(c, nil) })
	}
	if err != nil {
		return nil, err
	}
	f.openMu.Lock()
	st := f.open[h.inode]
	if st == nil {
		st = &openFile{inode: h.inode, path: p}
		f.open[h.inode] = st
	}
	st.handles++
	h.st = st
	f.openMu.Unlock()
	return h, nil
}

// isOpen reports whether a handle in this process holds inode.
func (f *FS) isOpen(inode int64) bool {
	f.openMu.Lock()
	defer f.openMu.Unlock()
	return f.open[inode] != nil
}

// Name returns the path the file was opened with.
func (h *File) Name() string { return h.path }

func (h *File) ctx() context.Context { return context.Background() }

func (h *File) check(op string, write bool) error {
	if h.closed {
		return errClosed(op, h.path)
	}
	if h.f.closed.Load() {
		return perr(op, h.path, EBADF, "workspace is closed")
	}
	acc := h.flag & (os.O_RDONLY | os.O_WRONLY | os.O_RDWR)
	if write && acc == os.O_RDONLY {
		return perr(op, h.path, EBADF, "file not open for writing")
	}
	if !write && acc == os.O_WRONLY {
		return perr(op, h.path, EBADF, "file not open for reading")
	}
	if h.kind == TypeDir && op != "readdir" && op != "seek" && op != "stat" && op != "close" {
		return perr(op, h.path, EISDIR, "path is a directory")
	}
	return nil
}

// Read reads from the current offset.
func (h *File) Read(p []byte) (int, error) {
	h.mu.Lock()
	if err := h.check("read", false); err != nil {
		h.mu.Unlock()
		return 0, err
	}
	off := h.off
	h.mu.Unlock()
	n, err := h.pread(p, off)
	h.mu.Lock()
	h.off = off + int64(n)
	h.mu.Unlock()
	return n, err
}

// ReadAt reads at off without moving the offset.
func (h *File) ReadAt(p []byte, off int64) (int, error) {
	h.mu.Lock()
	err := h.check("read", false)
	h.mu.Unlock()
	if err != nil {
		return 0, err
	}
	if off < 0 {
		return 0, perr("read", h.path, EINVAL, "negative offset")
	}
	n, err := h.pread(p, off)
	if err == nil && n < len(p) {
		err = io.EOF
	}
	return n, err
}

// pread reads at off; it returns io.EOF only when nothing was read at the
// end of the file. Callers must not hold h.mu (reads flush every handle).
func (h *File) pread(p []byte, off int64) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if h.mnt != nil {
		return h.preadMount(p, off)
	}
	if n, ok := h.preadCached(p, off); ok {
		return n, nil
	}
	var n int
	gen := h.f.gen.Load()
	err := h.f.view(h.ctx(), "read", h.path, func(c *sqldb.Conn) error {
		nd, err := getNode(c, h.inode)
		if err != nil || nd == nil {
			return err // removed by another process: reads as empty
		}
		h.rcMu.Lock()
		defer h.rcMu.Unlock()
		for n < len(p) && off < nd.size {
			idx := off / ChunkSize
			rc := &h.rc
			if rc.data == nil || rc.idx != idx || rc.rev != nd.rev {
				data, err := readChunk(c, h.inode, idx)
				if err != nil {
					return err
				}
				if want := min(ChunkSize, nd.size-idx*ChunkSize); int64(len(data)) < want {
					return perr("read", h.path, EIO, "missing chunk data for")
				}
				*rc = readCache{idx: idx, rev: nd.rev, data: data}
			}
			rc.size, rc.gen, rc.at = nd.size, gen, time.Now()
			in := off - idx*ChunkSize
			m := copy(p[n:], rc.data[in:min(int64(len(rc.data)), nd.size-idx*ChunkSize)])
			n += m
			off += int64(m)
		}
		return nil
	})
	if err == nil && n == 0 {
		err = io.EOF
	}
	return n, err
}

func (h *File) preadMount(p []byte, off int64) (int, error) {
	fi, err := fs.Stat(h.mnt.m.fsys, h.mnt.rel)
	if err != nil {
		return 0, perr("read", h.path, Code(err), "mounted filesystem: "+err.Error())
	}
	if off >= fi.Size() {
		return 0, io.EOF
	}
	return h.mnt.readAt(p[:min(int64(len(p)), fi.Size()-off)], off)
}

// readCache holds the chunk a handle read last; (inode, rev) identifies the
// file's content, since every content change stamps a new revision.
type readCache struct {
	idx, rev int64
	data     []byte
	size     int64     // the file's size when last checked
	gen      int64     // FS.gen when last checked
	at       time.Time // when last checked
}

// readCacheTTL bounds how long a handle trusts its cached chunk without
// asking the database, which is how long a change committed by another
// process can stay unseen by a reader of the same chunk. Changes made in
// this process are seen at once (they move FS.gen).
const readCacheTTL = 10 * time.Millisecond

// preadCached serves a read from the handle's cached chunk when it is known
// to be current, without a database round trip.
func (h *File) preadCached(p []byte, off int64) (int, bool) {
	h.rcMu.Lock()
	defer h.rcMu.Unlock()
	rc := &h.rc
	if rc.data == nil || off/ChunkSize != rc.idx || off >= rc.size || h.f.dirty.Load() > 0 ||
		rc.gen != h.f.gen.Load() || time.Since(rc.at) > readCacheTTL {
		return 0, false
	}
	in := off - rc.idx*ChunkSize
	avail := rc.data[in:min(int64(len(rc.data)), rc.size-rc.idx*ChunkSize)]
	if len(p) > len(avail) && rc.size > (rc.idx+1)*ChunkSize {
		return 0, false // the read continues into the next chunk
	}
	return copy(p, avail), true
}

// WriteTo streams the rest of the file to w one chunk at a time.
func (h *File) WriteTo(w io.Writer) (int64, error) {
	buf := make([]byte, ChunkSize)
	var total int64
	for {
		n, err := h.Read(buf)
		if n > 0 {
			m, werr := w.Write(buf[:n])
			total += int64(m)
			if werr != nil {
				return total, werr
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// Write writes at the current offset (at the end with O_APPEND).
func (h *File) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.check("write", true); err != nil {
		return 0, err
	}
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.takeErr(); err != nil {
		return 0, err
	}
	if h.flag&os.O_APPEND != 0 {
		size, err := st.sizeLocked(h.f)
		if err != nil {
			return 0, err
		}
		h.off = size
	}
	n, err := st.writeLocked(h.f, h.path, p, h.off)
	h.off += int64(n)
	return n, err
}

// WriteAt writes at off without moving the offset.
func (h *File) WriteAt(p []byte, off int64) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.check("write", true); err != nil {
		return 0, err
	}
	if h.flag&os.O_APPEND != 0 {
		return 0, perr("write", h.path, EINVAL, "WriteAt on a file opened with O_APPEND")
	}
	if off < 0 {
		return 0, perr("write", h.path, EINVAL, "negative offset")
	}
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.takeErr(); err != nil {
		return 0, err
	}
	return st.writeLocked(h.f, h.path, p, off)
}

// Seek sets the offset. On a directory, Seek(0, io.SeekStart) rewinds ReadDir.
func (h *File) Seek(offset int64, whence int) (int64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return 0, errClosed("seek", h.path)
	}
	if h.kind == TypeDir {
		if offset != 0 || whence != io.SeekStart {
			return 0, perr("seek", h.path, EINVAL, "directories can only rewind")
		}
		h.dirAfter, h.dirDone, h.dirMnt = "", false, nil
		return 0, nil
	}
	var base int64
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		base = h.off
	case io.SeekEnd:
		h.st.mu.Lock()
		size, err := h.st.sizeLocked(h.f)
		h.st.mu.Unlock()
		if err != nil {
			return 0, err
		}
		base = size
	default:
		return 0, perr("seek", h.path, EINVAL, "invalid whence")
	}
	if base+offset < 0 {
		return 0, perr("seek", h.path, EINVAL, "negative position")
	}
	h.off = base + offset
	return h.off, nil
}

// Truncate changes the file's size; growing pads with zeros.
func (h *File) Truncate(size int64) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.check("truncate", true); err != nil {
		return err
	}
	if size < 0 {
		return perr("truncate", h.path, EINVAL, "negative size")
	}
	if size > h.f.lim.MaxFileSize {
		return h.f.tooBig("truncate", h.path)
	}
	st := h.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.flushLocked(h.f, h.ctx()); err != nil {
		return err
	}
	if err := st.takeErr(); err != nil {
		return err
	}
	return h.f.updateRaw(h.ctx(), "truncate", h.path, func(t *wtx) error {
		nd, err := getNode(t.c, h.inode)
		if err != nil || nd == nil || nd.size == size {
			return err
		}
		if err := t.rewrite(h.path, h.inode, nd.size, size, nil, size); err != nil {
			return err
		}
		if nd.nlink > 0 {
			t.dBytes += size - nd.size
			t.record(OpWrite, h.path, "", TypeFile)
		}
		t.dirty = true
		return t.c.Exec(`UPDATE vfs_nodes SET size = ?, mtime = ?2, ctime = ?2, rev = ? WHERE inode = ?`, size, t.now, t.rev, h.inode)
	})
}

// Sync commits pending writes.
func (h *File) Sync() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return errClosed("sync", h.path)
	}
	h.st.mu.Lock()
	defer h.st.mu.Unlock()
	if err := h.st.flushLocked(h.f, h.ctx()); err != nil {
		return err
	}
	return h.st.takeErr()
}

// Stat describes the file as it is now (after pending writes).
func (h *File) Stat() (fs.FileInfo, error) {
	fi, err := h.stat()
	if err != nil {
		return nil, err
	}
	return fi, nil
}

func (h *File) stat() (*FileInfo, error) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, errClosed("stat", h.path)
	}
	h.mu.Unlock()
	if h.mnt != nil {
		res, err := h.mnt.m.resolve(h.mnt.m.root, splitRel(h.mnt.rel))
		if err != nil {
			return nil, err
		}
		if res.n == nil {
			return nil, perr("stat", h.path, ENOENT, "no such path")
		}
		fi := res.n.info(h.path)
		fi.ReadOnly = true
		return fi, nil
	}
	var fi *FileInfo
	err := h.f.view(h.ctx(), "stat", h.path, func(c *sqldb.Conn) error {
		nd, err := getNode(c, h.inode)
		if err != nil {
			return err
		}
		if nd == nil {
			return perr("stat", h.path, ENOENT, "no such path")
		}
		fi = nd.info(h.path)
		return nil
	})
	return fi, err
}

func splitRel(rel string) []string {
	if rel == "." {
		return nil
	}
	return strings.Split(rel, "/")
}

// Close flushes pending writes and releases the handle. The last handle on
// a removed file deletes it.
func (h *File) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return errClosed("close", h.path)
	}
	h.closed = true
	st, f := h.st, h.f
	st.mu.Lock()
	err := st.flushLocked(f, h.ctx())
	if err == nil {
		err = st.takeErr()
	}
	st.mu.Unlock()

	f.openMu.Lock()
	st.handles--
	last := st.handles == 0
	if last {
		delete(f.open, h.inode)
	}
	f.openMu.Unlock()
	if last && h.mnt == nil && h.kind == TypeFile && !f.closed.Load() {
		derr := f.updateRaw(context.Background(), "close", h.path, func(t *wtx) error {
			nd, err := getNode(t.c, h.inode)
			if err != nil || nd == nil || nd.nlink > 0 {
				return err
			}
			t.dirty = true
			return t.deleteNode(h.inode, TypeFile)
		})
		if err == nil {
			err = derr
		}
	}
	return err
}

// ReadDir returns the next n entries of a directory (all remaining when
// n <= 0), in byte order of names. At the end it returns io.EOF when n > 0.
func (h *File) ReadDir(n int) ([]fs.DirEntry, error) {
	entries, err := h.ReadDirEntries(n)
	out := make([]fs.DirEntry, len(entries))
	for i := range entries {
		e := entries[i]
		out[i] = &FileInfo{Path: e.Path, Inode: e.Inode, Kind: e.Kind, Perm: e.Mode & permBits, Bytes: e.Size, Mtime: e.Mtime, Nlink: 1}
	}
	return out, err
}

// ReadDirEntries is ReadDir returning Entry values.
func (h *File) ReadDirEntries(n int) ([]Entry, error) {
	if h.f.dirty.Load() > 0 {
		h.f.flushAll(h.ctx())
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.check("readdir", false); err != nil {
		return nil, err
	}
	if h.kind != TypeDir {
		return nil, perr("readdir", h.path, ENOTDIR, "not a directory")
	}
	var out []Entry
	for !h.dirDone && (n <= 0 || len(out) < n) {
		want := h.f.lim.MaxPage
		if n > 0 {
			want = min(want, n-len(out))
		}
		var page []Entry
		var more bool
		if h.mnt != nil {
			if h.dirMnt == nil {
				all, err := h.mnt.entries(h.path)
				if err != nil {
					return out, err
				}
				h.dirMnt = all
			}
			for _, e := range h.dirMnt {
				if e.Name > h.dirAfter && len(page) < want {
					page = append(page, e)
				}
			}
			more = len(page) == want
		} else {
			err := h.f.db.Read(h.ctx(), func(c *sqldb.Conn) error {
				var err error
				page, more, err = listDir(c, h.inode, h.path, h.dirAfter, 0, want)
				return err
			})
			if err != nil {
				return out, ioErr("readdir", h.path, err)
			}
		}
		if len(page) > 0 {
			h.dirAfter = page[len(page)-1].Name
		}
		out = append(out, page...)
		if !more {
			h.dirDone = true
		}
	}
	if n > 0 && len(out) == 0 {
		return nil, io.EOF
	}
	return out, nil
}
