package git

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
)

// go-git writes a fetched pack to a temporary file while another goroutine
// parses it through a second handle on the same file (its PackWriter's
// synced reader), and treats an end of file seen before the writer closes
// as "more is coming" but one seen after as the end. Two vfs handles do
// not promise that a read racing a write in another goroutine sees it, so
// a parse could end early ("malformed PACK file: unexpected EOF"). The
// module therefore serves the read side of a temporary pack from the
// writing handle itself, whose reads see its own writes.

// packWriters are the open temporary pack files by workspace path.
var packWriters sync.Map // string → *billyFile

func isTempPack(p string) bool {
	return strings.Contains(p, "/.git/objects/pack/tmp_pack_")
}

// packReader reads a temporary pack through its writing handle.
type packReader struct {
	w    *billyFile
	name string
	mu   sync.Mutex
	off  int64
}

func (r *packReader) Name() string { return r.name }

func (r *packReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, err := r.w.File.ReadAt(p, r.off)
	r.off += int64(n)
	if n > 0 && errors.Is(err, io.EOF) {
		err = nil
	}
	return n, err
}

func (r *packReader) ReadAt(p []byte, off int64) (int, error) { return r.w.File.ReadAt(p, off) }

func (r *packReader) Seek(offset int64, whence int) (int64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += r.off
	case io.SeekEnd:
		fi, err := r.w.File.Stat()
		if err != nil {
			return 0, err
		}
		offset += fi.Size()
	}
	if offset < 0 {
		return 0, &os.PathError{Op: "seek", Path: r.name, Err: fs.ErrInvalid}
	}
	r.off = offset
	return offset, nil
}

func (r *packReader) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: r.name, Err: fs.ErrPermission}
}
func (r *packReader) Close() error               { return nil }
func (r *packReader) Lock() error                { return nil }
func (r *packReader) Unlock() error              { return nil }
func (r *packReader) Stat() (fs.FileInfo, error) { return r.w.File.Stat() }

func (r *packReader) Truncate(int64) error {
	return &os.PathError{Op: "truncate", Path: r.name, Err: fs.ErrPermission}
}

// Close closes the handle and, for a temporary pack, stops serving its
// readers from it.
func (f *billyFile) Close() error {
	if f.pack != "" {
		packWriters.CompareAndDelete(f.pack, f)
	}
	return f.File.Close()
}
