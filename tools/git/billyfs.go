package git

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/go-git/go-billy/v5"

	"github.com/nookdev/nook/vfs"
)

// billyFS is a go-billy filesystem over a directory of the workspace: the
// worktree go-git checks files out into, and (chrooted to .git) the object
// store. Every path is confined: names are cleaned against the
// filesystem's root (".." stops there) and symlinks are resolved with
// vfs.ResolveBeneath against confine (the module's Root), so neither a
// path nor a symlink in a checked-out tree reaches outside it.
//
// billy's methods take no context: a billyFS is made per call, with the
// call's context.
type billyFS struct {
	ctx     context.Context
	fs      *vfs.FS
	root    string // absolute, canonical: what Root returns
	confine string // the module's root, which no access leaves
}

var tempSeq atomic.Int64

func newBilly(ctx context.Context, f *vfs.FS, root, confine string) *billyFS {
	return &billyFS{ctx: ctx, fs: f, root: root, confine: confine}
}

var (
	_ billy.Filesystem = (*billyFS)(nil)
	_ billy.Chmod      = (*billyFS)(nil)
)

// abs maps a billy name (relative to the root, or absolute meaning the
// same) to a workspace path under the root.
func (b *billyFS) abs(name string) string {
	rel := path.Clean("/" + strings.ReplaceAll(name, "\\", "/"))
	if rel == "/" {
		return b.root
	}
	if b.root == "/" {
		return rel
	}
	return b.root + rel
}

// resolve returns the canonical workspace path of name, its symlinks
// expanded within confine (the last one only when follow is set).
func (b *billyFS) resolve(op, name string, follow bool) (string, error) {
	p, err := b.fs.ResolveBeneath(b.ctx, b.confine, b.abs(name), follow)
	if err != nil {
		return "", osErr(op, name, err)
	}
	return p, nil
}

// osErr turns a vfs error into an *os.PathError carrying a syscall.Errno,
// which is what go-git tests with os.IsNotExist and os.IsExist.
func osErr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	var e syscall.Errno
	switch vfs.Code(err) {
	case vfs.ENOENT:
		e = syscall.ENOENT
	case vfs.EEXIST:
		e = syscall.EEXIST
	case vfs.ENOTDIR:
		e = syscall.ENOTDIR
	case vfs.EISDIR:
		e = syscall.EISDIR
	case vfs.ENOTEMPTY:
		e = syscall.ENOTEMPTY
	case vfs.EINVAL:
		e = syscall.EINVAL
	case vfs.EPERM:
		e = syscall.EPERM
	case vfs.EROFS:
		e = syscall.EROFS
	case vfs.ELOOP:
		e = syscall.ELOOP
	case vfs.ENAMETOOLONG:
		e = syscall.ENAMETOOLONG
	case "EACCES":
		e = syscall.EACCES
	case "ENOSPC":
		e = syscall.ENOSPC
	default:
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return &os.PathError{Op: op, Path: name, Err: err}
	}
	return &os.PathError{Op: op, Path: name, Err: e}
}

func (b *billyFS) Create(name string) (billy.File, error) {
	return b.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (b *billyFS) Open(name string) (billy.File, error) {
	return b.OpenFile(name, os.O_RDONLY, 0)
}

func (b *billyFS) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	p, err := b.resolve("open", name, true)
	if err != nil {
		return nil, err
	}
	if flag&os.O_CREATE != 0 {
		if err := b.fs.MkdirAll(b.ctx, path.Dir(p), 0o755); err != nil {
			return nil, osErr("open", name, err)
		}
	}
	if flag&(os.O_WRONLY|os.O_RDWR) != 0 && strings.Contains(p+"/", "/.git/") && !strings.Contains(p, "/.git/objects/") {
		return b.openAtomic(p, name, flag, perm)
	}
	if isTempPack(p) && flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		if w, ok := packWriters.Load(p); ok {
			return &packReader{w: w.(*billyFile), name: name}, nil
		}
	}
	h, err := b.fs.OpenFile(b.ctx, p, flag, perm.Perm())
	if err != nil {
		return nil, osErr("open", name, err)
	}
	f := &billyFile{File: h, name: name}
	if isTempPack(p) && flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		f.pack = p
		packWriters.Store(p, f)
	}
	return f, nil
}

// openAtomic opens a small repository file (a ref, HEAD, the index, the
// config, a reflog) for writing as a buffer written back in one
// transaction at Close: go-git rewrites a ref by truncating and writing
// it, and a crash between the two would leave an empty ref.
func (b *billyFS) openAtomic(p, name string, flag int, perm os.FileMode) (billy.File, error) {
	var data []byte
	old, err := b.fs.ReadFile(b.ctx, p)
	switch {
	case err == nil:
		if flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0 {
			return nil, osErr("open", name, &os.PathError{Op: "open", Path: name, Err: syscall.EEXIST})
		}
		if flag&os.O_TRUNC == 0 {
			data = old
		}
	case vfs.Code(err) == vfs.ENOENT && flag&os.O_CREATE != 0:
	default:
		return nil, osErr("open", name, err)
	}
	f := &atomicFile{b: b, p: p, name: name, data: data, perm: uint32(perm.Perm()), dirty: err != nil || flag&os.O_TRUNC != 0}
	if flag&os.O_APPEND != 0 {
		f.off = int64(len(data))
		f.appendOnly = true
	}
	return f, nil
}

// atomicFile is a buffered file of openAtomic.
type atomicFile struct {
	b          *billyFS
	p, name    string
	data       []byte
	off        int64
	perm       uint32
	dirty      bool
	appendOnly bool
	closed     bool
}

func (f *atomicFile) Name() string { return f.name }

func (f *atomicFile) Read(p []byte) (int, error) {
	if f.off >= int64(len(f.data)) {
		return 0, io.EOF
	}
	n := copy(p, f.data[f.off:])
	f.off += int64(n)
	return n, nil
}

func (f *atomicFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(f.data)) {
		return 0, io.EOF
	}
	n := copy(p, f.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (f *atomicFile) Write(p []byte) (int, error) {
	if f.appendOnly {
		f.off = int64(len(f.data))
	}
	if end := f.off + int64(len(p)); end > int64(len(f.data)) {
		f.data = append(f.data, make([]byte, end-int64(len(f.data)))...)
	}
	copy(f.data[f.off:], p)
	f.off += int64(len(p))
	f.dirty = true
	return len(p), nil
}

func (f *atomicFile) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		off += f.off
	case io.SeekEnd:
		off += int64(len(f.data))
	}
	if off < 0 {
		return 0, &os.PathError{Op: "seek", Path: f.name, Err: syscall.EINVAL}
	}
	f.off = off
	return off, nil
}

func (f *atomicFile) Truncate(size int64) error {
	if size < int64(len(f.data)) {
		f.data = f.data[:size]
	} else {
		f.data = append(f.data, make([]byte, size-int64(len(f.data)))...)
	}
	f.dirty = true
	return nil
}

func (f *atomicFile) Close() error {
	if f.closed {
		return nil
	}
	f.closed = true
	if !f.dirty {
		return nil
	}
	if err := f.b.fs.WriteFile(f.b.ctx, f.p, f.data, &vfs.WriteOptions{MkdirAll: true}); err != nil {
		return osErr("write", f.name, err)
	}
	return nil
}

func (f *atomicFile) Lock() error   { return nil }
func (f *atomicFile) Unlock() error { return nil }

func (b *billyFS) Stat(name string) (os.FileInfo, error) {
	p, err := b.resolve("stat", name, true)
	if err != nil {
		return nil, err
	}
	fi, err := b.fs.Stat(b.ctx, p)
	if err != nil {
		return nil, osErr("stat", name, err)
	}
	return fi, nil
}

func (b *billyFS) Lstat(name string) (os.FileInfo, error) {
	p, err := b.resolve("lstat", name, false)
	if err != nil {
		return nil, err
	}
	fi, err := b.fs.Lstat(b.ctx, p)
	if err != nil {
		return nil, osErr("lstat", name, err)
	}
	return fi, nil
}

func (b *billyFS) Rename(from, to string) error {
	pf, err := b.resolve("rename", from, false)
	if err != nil {
		return err
	}
	pt, err := b.resolve("rename", to, false)
	if err != nil {
		return err
	}
	if err := b.fs.MkdirAll(b.ctx, path.Dir(pt), 0o755); err != nil {
		return osErr("rename", to, err)
	}
	return osErr("rename", from, b.fs.Rename(b.ctx, pf, pt))
}

func (b *billyFS) Remove(name string) error {
	p, err := b.resolve("remove", name, false)
	if err != nil {
		return err
	}
	return osErr("remove", name, b.fs.Remove(b.ctx, p, nil))
}

func (b *billyFS) Join(elem ...string) string { return path.Join(elem...) }

func (b *billyFS) TempFile(dir, prefix string) (billy.File, error) {
	for {
		name := path.Join(dir, fmt.Sprintf("%s%d-%d", prefix, os.Getpid(), tempSeq.Add(1)))
		f, err := b.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if os.IsExist(err) {
			continue
		}
		return f, err
	}
}

func (b *billyFS) ReadDir(name string) ([]os.FileInfo, error) {
	p, err := b.resolve("readdir", name, true)
	if err != nil {
		return nil, err
	}
	var out []os.FileInfo
	page := vfs.Page{Limit: 1000}
	for {
		l, err := b.fs.ReadDir(b.ctx, p, page)
		if err != nil {
			return nil, osErr("readdir", name, err)
		}
		for _, e := range l.Entries {
			fi, err := b.fs.Lstat(b.ctx, e.Path)
			if err != nil {
				if vfs.Code(err) == vfs.ENOENT {
					continue
				}
				return nil, osErr("readdir", name, err)
			}
			out = append(out, fi)
		}
		if l.NextOffset == 0 {
			return out, nil
		}
		page.Offset = l.NextOffset
	}
}

func (b *billyFS) MkdirAll(name string, perm os.FileMode) error {
	p, err := b.resolve("mkdir", name, true)
	if err != nil {
		return err
	}
	return osErr("mkdir", name, b.fs.MkdirAll(b.ctx, p, perm.Perm()))
}

func (b *billyFS) Symlink(target, link string) error {
	p, err := b.resolve("symlink", link, false)
	if err != nil {
		return err
	}
	if err := b.fs.MkdirAll(b.ctx, path.Dir(p), 0o755); err != nil {
		return osErr("symlink", link, err)
	}
	return osErr("symlink", link, b.fs.Symlink(b.ctx, target, p))
}

func (b *billyFS) Readlink(link string) (string, error) {
	p, err := b.resolve("readlink", link, false)
	if err != nil {
		return "", err
	}
	t, err := b.fs.Readlink(b.ctx, p)
	return t, osErr("readlink", link, err)
}

func (b *billyFS) Chmod(name string, mode os.FileMode) error {
	p, err := b.resolve("chmod", name, true)
	if err != nil {
		return err
	}
	return osErr("chmod", name, b.fs.Chmod(b.ctx, p, mode.Perm()))
}

func (b *billyFS) Chroot(dir string) (billy.Filesystem, error) {
	return &billyFS{ctx: b.ctx, fs: b.fs, root: b.abs(dir), confine: b.confine}, nil
}

func (b *billyFS) Root() string { return b.root }

// billyFile is an open workspace file as go-billy wants it.
type billyFile struct {
	*vfs.File
	name string
	pack string // the workspace path of a temporary pack being written (packwrite.go)
}

func (f *billyFile) Name() string { return f.name }

// Lock and Unlock do nothing: go-git locks files against other git
// processes; the workspace's transactions order writers already.
func (f *billyFile) Lock() error   { return nil }
func (f *billyFile) Unlock() error { return nil }

// Stat is the file's info.
func (f *billyFile) Stat() (fs.FileInfo, error) { return f.File.Stat() }
