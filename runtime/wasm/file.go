package wasm

import (
	"io"
	"io/fs"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
)

// file is an open file or directory of a guest. It holds what a kernel's
// open file description would: the path it is reached by (kept current
// across the guest's own renames), the access mode, the position, and for a
// directory the entries read so far. Reads and writes are ranged fs calls
// (pread, pwrite, truncate) on the path.
//
// A file unlinked while open (or replaced by a rename) is detached: its
// content was copied into mem, and reads and writes go there until it is
// closed, as they would on the orphaned inode. A file too large to copy
// within the run's memory limit becomes stale: its reads and writes fail
// with EIO.
type file struct {
	// seeker provides Seek, the one method not declared on file (see
	// seek.go); every other method of sys.File is file's own.
	seeker

	fs       *vfsFS
	path     string
	ino      uint64
	mode     fs.FileMode
	dir      bool
	readable bool
	writable bool
	append   bool
	pos      int64
	closed   bool

	detached bool
	stale    bool
	mem      []byte

	// What the last host call on the file told, while the run's epoch is
	// still knownAt (no host call, output, clock read or sleep since):
	// the stats (statOK), and that the file ends at eof (eofOK). A guest
	// cannot tell an answer from these from a call made at once, so
	// os.ReadFile's fstat after its open and its read at the end cost no
	// call (see RATIONALE.md, "Calls the guest cannot tell apart").
	knownAt uint64
	st      sys.Stat_t
	statOK  bool
	eof     int64
	eofOK   bool

	// A directory's listing: entries fetched and not yet returned, the
	// offset of the next page, and whether the end was reached.
	ents    []experimentalsys.Dirent
	next    int64
	started bool
	listEnd bool
}

var _ experimentalsys.File = (*file)(nil)

// current reports whether what the file knows from its last host call
// still holds: nothing outside the guest was contacted since.
func (f *file) current() bool { return f.knownAt == f.fs.st.epoch.Load() }

// know records the stats a host call just returned.
func (f *file) know(st sys.Stat_t) {
	if !f.current() {
		f.eofOK = false
	}
	f.knownAt, f.st, f.statOK = f.fs.st.epoch.Load(), st, true
}

// knowEOF records that a host read just found the end of the file at off.
func (f *file) knowEOF(off int64) {
	if !f.current() {
		f.statOK = false
	}
	f.knownAt, f.eof, f.eofOK = f.fs.st.epoch.Load(), off, true
}

// Dev implements sys.File.
func (f *file) Dev() (uint64, experimentalsys.Errno) { return 0, 0 }

// Ino implements sys.File.
func (f *file) Ino() (sys.Inode, experimentalsys.Errno) { return f.ino, 0 }

// IsDir implements sys.File.
func (f *file) IsDir() (bool, experimentalsys.Errno) { return f.dir, 0 }

// IsAppend implements sys.File.
func (f *file) IsAppend() bool { return f.append }

// SetAppend implements sys.File.
func (f *file) SetAppend(enable bool) experimentalsys.Errno {
	f.append = enable
	return 0
}

// Stat implements sys.File.
func (f *file) Stat() (sys.Stat_t, experimentalsys.Errno) {
	if f.closed {
		return sys.Stat_t{}, experimentalsys.EBADF
	}
	if f.detached {
		return sys.Stat_t{Ino: f.ino, Mode: f.mode, Nlink: 0, Size: int64(len(f.mem))}, 0
	}
	if f.statOK && f.current() {
		return f.st, 0
	}
	st, errno := f.fs.stat("stat", f.path)
	if errno == 0 && st.Ino != f.ino && f.ino != 0 {
		// The path now names another node (something outside the run
		// replaced it); report what is there.
		f.ino = st.Ino
	}
	if errno == 0 {
		f.know(st)
	}
	return st, errno
}

// Read implements sys.File.
func (f *file) Read(buf []byte) (int, experimentalsys.Errno) {
	n, errno := f.Pread(buf, f.pos)
	f.pos += int64(n)
	return n, errno
}

// Pread implements sys.File. It returns (0, 0) at the end of the file.
func (f *file) Pread(buf []byte, off int64) (int, experimentalsys.Errno) {
	switch {
	case f.closed:
		return 0, experimentalsys.EBADF
	case f.dir:
		return 0, experimentalsys.EISDIR
	case !f.readable:
		return 0, experimentalsys.EBADF
	case off < 0:
		return 0, experimentalsys.EINVAL
	case len(buf) == 0:
		return 0, 0
	case f.stale:
		return 0, experimentalsys.EIO
	case f.detached:
		if off >= int64(len(f.mem)) {
			return 0, 0
		}
		return copy(buf, f.mem[off:]), 0
	case f.eofOK && off >= f.eof && f.current():
		return 0, 0
	}
	res, errno := f.fs.call("pread", map[string]any{"path": f.path, "offset": float64(off), "length": float64(len(buf))})
	if errno != 0 {
		return 0, errno
	}
	b, _ := res.([]byte)
	if int64(len(b)) < min(int64(len(buf)), f.fs.st.req.Limits.MaxCallBytes) {
		// A short read ends at the end of the file.
		f.knowEOF(off + int64(len(b)))
	}
	return copy(buf, b), 0
}

// seek is the file's Seek (see seeker). A directory only rewinds (to
// offset 0), which starts a new listing.
func (f *file) seek(offset int64, whence int) (int64, experimentalsys.Errno) {
	if f.closed {
		return 0, experimentalsys.EBADF
	}
	if f.dir {
		if offset != 0 || whence != io.SeekStart {
			return 0, experimentalsys.EINVAL
		}
		f.ents, f.next, f.started, f.listEnd = nil, 0, false, false
		return 0, 0
	}
	var base int64
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		base = f.pos
	case io.SeekEnd:
		st, errno := f.Stat()
		if errno != 0 {
			return 0, errno
		}
		base = st.Size
	default:
		return 0, experimentalsys.EINVAL
	}
	if base+offset < 0 {
		return 0, experimentalsys.EINVAL
	}
	f.pos = base + offset
	return f.pos, 0
}

// Readdir implements sys.File: up to n entries, fewer at the end. It reads
// the directory in pages (readdirPage) as they are needed; "." and ".."
// are added by wazero.
func (f *file) Readdir(n int) ([]experimentalsys.Dirent, experimentalsys.Errno) {
	switch {
	case f.closed:
		return nil, experimentalsys.EBADF
	case !f.dir:
		return nil, experimentalsys.ENOTDIR
	}
	for len(f.ents) < n && !f.listEnd {
		limit := max(n-len(f.ents), 256)
		res, errno := f.fs.call("readdirPage", map[string]any{"path": f.path, "offset": float64(f.next), "limit": float64(limit)})
		if errno != 0 {
			return nil, errno
		}
		m, _ := res.(map[string]any)
		list, _ := m["entries"].([]any)
		for _, e := range list {
			em, _ := e.(map[string]any)
			name, _ := em["name"].(string)
			ino, _ := em["ino"].(float64)
			d := experimentalsys.Dirent{Name: name, Ino: uint64(ino)}
			switch em["type"] {
			case "dir":
				d.Type = fs.ModeDir
			case "symlink":
				d.Type = fs.ModeSymlink
			}
			f.ents = append(f.ents, d)
		}
		next, _ := m["next"].(float64)
		f.next = int64(next)
		if f.next == 0 || len(list) == 0 {
			f.listEnd = true
		}
	}
	k := min(n, len(f.ents))
	out := f.ents[:k:k]
	f.ents = f.ents[k:]
	return out, 0
}

// Write implements sys.File.
func (f *file) Write(buf []byte) (int, experimentalsys.Errno) {
	if f.append && !f.detached && !f.stale && !f.closed && f.writable && !f.dir {
		n, size, errno := f.write(buf, 0, true)
		if errno == 0 {
			f.pos = size
		}
		return n, errno
	}
	if f.append && f.detached {
		f.pos = int64(len(f.mem))
	}
	n, errno := f.Pwrite(buf, f.pos)
	f.pos += int64(n)
	return n, errno
}

// Pwrite implements sys.File.
func (f *file) Pwrite(buf []byte, off int64) (int, experimentalsys.Errno) {
	switch {
	case f.closed:
		return 0, experimentalsys.EBADF
	case f.dir:
		return 0, experimentalsys.EISDIR
	case !f.writable:
		return 0, experimentalsys.EBADF
	case off < 0:
		return 0, experimentalsys.EINVAL
	case len(buf) == 0:
		return 0, 0
	case f.stale:
		return 0, experimentalsys.EIO
	case f.detached:
		end := off + int64(len(buf))
		if end > f.fs.st.req.Limits.MaxMemoryBytes {
			return 0, experimentalsys.EIO
		}
		if end > int64(len(f.mem)) {
			f.mem = append(f.mem, make([]byte, end-int64(len(f.mem)))...)
		}
		return copy(f.mem[off:], buf), 0
	}
	n, _, errno := f.write(buf, off, false)
	return n, errno
}

// write writes buf at off (or at the end), in pieces no larger than one
// host call may carry. It returns the bytes written and the file's size.
func (f *file) write(buf []byte, off int64, app bool) (int, int64, experimentalsys.Errno) {
	max := int(f.fs.st.req.Limits.MaxCallBytes)
	done := 0
	var size int64
	for done < len(buf) {
		piece := buf[done:min(len(buf), done+max)]
		res, errno := f.fs.call("pwrite", map[string]any{"path": f.path, "data": piece, "offset": float64(off + int64(done)), "append": app})
		if errno != 0 {
			if done > 0 {
				return done, size, 0
			}
			return 0, 0, errno
		}
		m, _ := res.(map[string]any)
		s, _ := m["size"].(float64)
		size = int64(s)
		done += len(piece)
	}
	return done, size, 0
}

// Truncate implements sys.File.
func (f *file) Truncate(size int64) experimentalsys.Errno {
	switch {
	case f.closed:
		return experimentalsys.EBADF
	case f.dir:
		return experimentalsys.EISDIR
	case !f.writable:
		return experimentalsys.EINVAL
	case size < 0:
		return experimentalsys.EINVAL
	case f.stale:
		return experimentalsys.EIO
	case f.detached:
		if size > f.fs.st.req.Limits.MaxMemoryBytes {
			return experimentalsys.EIO
		}
		if size <= int64(len(f.mem)) {
			f.mem = f.mem[:size]
		} else {
			f.mem = append(f.mem, make([]byte, size-int64(len(f.mem)))...)
		}
		return 0
	}
	_, errno := f.fs.call("truncate", map[string]any{"path": f.path, "length": float64(size)})
	return errno
}

// Sync implements sys.File: every write is already committed.
func (f *file) Sync() experimentalsys.Errno {
	if f.closed {
		return experimentalsys.EBADF
	}
	return 0
}

// Datasync implements sys.File.
func (f *file) Datasync() experimentalsys.Errno { return f.Sync() }

// Utimens implements sys.File.
func (f *file) Utimens(atim, mtim int64) experimentalsys.Errno {
	switch {
	case f.closed:
		return experimentalsys.EBADF
	case f.detached:
		return 0
	}
	return f.fs.utimens(f.path, atim, mtim)
}

// Close implements sys.File.
func (f *file) Close() experimentalsys.Errno {
	if f.closed {
		return 0
	}
	f.closed = true
	f.mem = nil
	delete(f.fs.files, f)
	delete(f.fs.dirs, f)
	return 0
}
