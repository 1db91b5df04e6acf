package shell

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/nookdev/nook/internal/mvsh/interp"

	"github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/runtime/shell/internal/hostfs"
)

// The interpreter's filesystem handlers: every open, stat, directory read
// (globs) and access check goes to the workspace through hostfs.

// abs resolves p against the interpreter's current directory.
func abs(ctx context.Context, p string) string {
	if !strings.HasPrefix(p, "/") {
		p = interp.HandlerCtx(ctx).Dir + "/" + p
	}
	return path.Clean(p)
}

// errno maps a host call's code to the errno the interpreter's messages
// and errors.Is checks expect.
func errno(err error) error {
	switch hostfs.Code(err) {
	case "ENOENT":
		return syscall.ENOENT
	case "EEXIST":
		return syscall.EEXIST
	case "ENOTDIR":
		return syscall.ENOTDIR
	case "EISDIR":
		return syscall.EISDIR
	case "EACCES":
		return syscall.EACCES
	case "EROFS":
		return syscall.EROFS
	case "ELOOP":
		return syscall.ELOOP
	case "ENAMETOOLONG":
		return syscall.ENAMETOOLONG
	case "ENOTEMPTY":
		return syscall.ENOTEMPTY
	case "EINVAL":
		return syscall.EINVAL
	}
	return err
}

func pathErr(op, p string, err error) error {
	return &os.PathError{Op: op, Path: p, Err: errno(err)}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Read([]byte) (int, error) { return 0, io.EOF }
func (nopWriteCloser) Close() error             { return nil }

type nopReadCloser struct{ io.Reader }

func (nopReadCloser) Write(p []byte) (int, error) { return 0, syscall.EBADF }
func (nopReadCloser) Close() error                { return nil }

// randReader reads the run's random bytes (/dev/urandom).
type randReader struct{ host host.Host }

func (r randReader) Read(p []byte) (int, error) {
	if len(p) > 64<<10 {
		p = p[:64<<10]
	}
	r.host.Random(p)
	return len(p), nil
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func (p *runProgram) openHandler(ctx context.Context, name string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	hc := interp.HandlerCtx(ctx)
	write := flag&(os.O_WRONLY|os.O_RDWR) != 0
	switch name {
	case "/dev/null":
		if write {
			return nopWriteCloser{io.Discard}, nil
		}
		return nopReadCloser{strings.NewReader("")}, nil
	case "/dev/stdout":
		return nopWriteCloser{hc.Stdout}, nil
	case "/dev/stderr":
		return nopWriteCloser{hc.Stderr}, nil
	case "/dev/stdin":
		return nopReadCloser{hc.Stdin}, nil
	case "/dev/zero":
		return nopReadCloser{zeroReader{}}, nil
	case "/dev/urandom", "/dev/random":
		return nopReadCloser{randReader{p.host}}, nil
	case jobDev:
		return p.openJob()
	}
	ap := abs(ctx, name)
	if !write {
		r, err := p.fs.Open(p.ctx, ap)
		if err != nil {
			return nil, pathErr("open", name, err)
		}
		return nopReadCloserFile{r}, nil
	}
	// A file the redirect creates gets 0666 less the umask (the
	// workspace's default when the mask is the default one).
	mask := p.umask.Load()
	created := false
	if mask != defaultUmask && flag&os.O_CREATE != 0 {
		_, serr := p.fs.Stat(p.ctx, ap)
		created = hostfs.Code(serr) == "ENOENT"
	}
	w, err := p.fs.Create(p.ctx, ap, flag&os.O_APPEND != 0, flag&os.O_EXCL != 0)
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	if created {
		if err := p.fs.Chmod(p.ctx, ap, uint32(0o666&^mask)); err != nil {
			return nil, pathErr("open", name, err)
		}
	}
	return redirWriter{w, name, hc.Stderr}, nil
}

// redirWriter is a file a redirection opened for writing. The interpreter
// ignores the error of its close, where what a builtin (echo, a loop's
// output) left in the buffer is appended: a refusal there is said on the
// statement's stderr, never lost with the file cut silently.
type redirWriter struct {
	*hostfs.Writer
	name   string
	stderr io.Writer
}

func (r redirWriter) Close() error {
	err := r.Writer.Close()
	if err != nil && r.stderr != nil {
		fmt.Fprintf(r.stderr, "bash: %s: write error: %s\n", r.name, errText(err))
	}
	return err
}

type nopReadCloserFile struct{ *hostfs.Reader }

func (nopReadCloserFile) Write([]byte) (int, error) { return 0, syscall.EBADF }

func (p *runProgram) statHandler(ctx context.Context, name string, follow bool) (fs.FileInfo, error) {
	ap := abs(ctx, name)
	var fi *hostfs.Info
	var err error
	if follow {
		fi, err = p.fs.Stat(p.ctx, ap)
	} else {
		fi, err = p.fs.Lstat(p.ctx, ap)
	}
	if err != nil {
		return nil, pathErr("stat", name, err)
	}
	return fi, nil
}

type dirEntry struct{ e hostfs.Entry }

func (d dirEntry) Name() string { return d.e.Name }
func (d dirEntry) IsDir() bool  { return d.e.Kind == "dir" }
func (d dirEntry) Type() fs.FileMode {
	switch d.e.Kind {
	case "dir":
		return fs.ModeDir
	case "symlink":
		return fs.ModeSymlink
	}
	return 0
}
func (d dirEntry) Info() (fs.FileInfo, error) {
	return &hostfs.Info{FName: d.e.Name, Kind: d.e.Kind, FMode: 0o644, MtimeV: time.Time{}}, nil
}

func (p *runProgram) readDirHandler(ctx context.Context, name string) ([]fs.DirEntry, error) {
	entries, err := p.fs.ReadDir(p.ctx, abs(ctx, name))
	if err != nil {
		// The expander takes any error for "no match" and leaves the
		// pattern as it is: a directory too large to list stops the run
		// with the limit, and other failures (not a missing path or a
		// file) are reported.
		switch c := hostfs.Code(err); {
		case c == "ERR_FS_DIR_TOO_LARGE":
			p.cancel(&host.LimitError{Limit: "MaxDirEntries", Max: int64(p.limits.MaxDirEntries),
				What: "directory " + name + " matched by a glob"})
		case c != "ENOENT" && c != "ENOTDIR" && p.ctx.Err() == nil:
			fmt.Fprintf(interp.HandlerCtx(ctx).Stderr, "bash: %s: cannot read directory: %s\n", name, errText(err))
		}
		return nil, pathErr("readdir", name, err)
	}
	out := make([]fs.DirEntry, len(entries))
	for i, e := range entries {
		out[i] = dirEntry{e}
	}
	return out, nil
}

func (p *runProgram) accessHandler(ctx context.Context, name string, mode interp.AccessMode) error {
	if err := p.fs.Access(p.ctx, abs(ctx, name), int(mode)); err != nil {
		return pathErr("access", name, err)
	}
	return nil
}
