package hostfs

import (
	"context"
	"io"
	"sync"
)

// Reader streams a file in ranged reads (pread), so a file of any size is
// read in bounded host calls.
type Reader struct {
	fs   *FS
	ctx  context.Context
	path string
	off  int64
	buf  []byte
	eof  bool
}

// Open opens p for reading. The first range is read at once, so a missing
// file or a directory fails here, as open(2) would.
func (f *FS) Open(ctx context.Context, p string) (*Reader, error) {
	r := &Reader{fs: f, ctx: ctx, path: p}
	if err := r.fill(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *Reader) fill() error {
	b, err := r.fs.Pread(r.ctx, r.path, r.off, r.fs.ChunkBytes)
	if err != nil {
		return err
	}
	r.off += int64(len(b))
	r.buf = b
	if len(b) == 0 {
		r.eof = true
	}
	return nil
}

// Read implements io.Reader.
func (r *Reader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.eof {
			return 0, io.EOF
		}
		if err := r.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// Close implements io.Closer.
func (r *Reader) Close() error { return nil }

// Writer buffers what is written to a file and appends it in bounded host
// calls: when the buffer fills and on Close.
type Writer struct {
	fs   *FS
	ctx  context.Context
	path string
	mu   sync.Mutex
	buf  []byte
	err  error
	ends int  // commands that ended writing to it (Flush)
	told bool // err was returned to a writer (Close does not return it again)
}

// flushBytes is the buffer size at which a Writer appends.
const flushBytes = 256 << 10

// Create opens p for writing: truncated (or created) unless appending, in
// which case it is created when missing. Like open(2) with O_TRUNC, the
// file is emptied at once, before anything is written.
func (f *FS) Create(ctx context.Context, p string, appendTo, exclusive bool) (*Writer, error) {
	flag := "w"
	switch {
	case exclusive && appendTo:
		flag = "ax"
	case exclusive:
		flag = "wx"
	case appendTo:
		flag = "a"
	}
	if err := f.WriteFile(ctx, p, nil, flag); err != nil {
		return nil, err
	}
	return &Writer{fs: f, ctx: ctx, path: p}, nil
}

// Write implements io.Writer.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		w.told = true
		return 0, w.err
	}
	w.buf = append(w.buf, p...)
	if len(w.buf) >= flushBytes {
		if err := w.flush(); err != nil {
			w.told = true
			return 0, err
		}
	}
	return len(p), nil
}

// flush appends the buffer in calls of at most flushBytes (one large
// write must not become one call past MaxCallBytes).
func (w *Writer) flush() error {
	for len(w.buf) > 0 && w.err == nil {
		n := min(len(w.buf), flushBytes)
		_, w.err = w.fs.call(w.ctx, "writeFile", map[string]any{"path": w.path, "data": w.buf[:n], "flag": "a"})
		w.buf = w.buf[n:]
	}
	if len(w.buf) == 0 {
		w.buf = nil
	}
	return w.err
}

// Read implements io.Reader for handles opened read-write; it reads
// nothing.
func (w *Writer) Read([]byte) (int, error) { return 0, io.EOF }

// Flush appends what is buffered; the writer stays open. A command's
// output to a file is flushed when the command ends, so a refused write
// (EFBIG past MaxFileSize, ENOSPC) is the command's error, as GNU's
// close_stdout makes it, not lost at the redirection's close. Only the
// first endFlushes commands of one redirection flush a buffer smaller
// than flushBytes: a loop of printf into one file ("done > f") must not
// cost a host call per iteration; past them, a refusal reaches the
// command that fills the buffer, or the redirection's close.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ends++; w.ends > endFlushes && len(w.buf) < flushBytes {
		return nil
	}
	err := w.flush()
	w.told = w.told || err != nil
	return err
}

// endFlushes is how many commands' ends flush a redirection's buffer.
const endFlushes = 16

// Close appends what is buffered. It returns an error that Write or
// Flush did not already return.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.flush(); err != nil && !w.told {
		w.told = true
		return err
	}
	return nil
}
