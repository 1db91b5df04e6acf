// Package hostfs is the shell's typed client of the run's filesystem door:
// every method is one (or a few) runtime.Host calls of kind "fs", so the
// journal sees, records and replays each of them. Nothing here touches the
// host's own filesystem.
package hostfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/nookdev/nook/runtime/host"
)

// FS performs filesystem operations through a run's host and records the
// changes they make.
type FS struct {
	host    host.Host
	root    string
	changes *Changes
	// ChunkBytes is the size of one ranged read (pread) when a file is
	// streamed.
	ChunkBytes int
	// MaxReadBytes bounds what ReadAll returns.
	MaxReadBytes int64
}

// New returns a client of host confined (by the host) to root.
func New(host host.Host, root string, maxRead int64) *FS {
	f := &FS{host: host, root: root, ChunkBytes: 1 << 20, MaxReadBytes: maxRead}
	f.changes = newChanges(f)
	return f
}

// Root returns the directory the shell's files live under.
func (f *FS) Root() string { return f.root }

// Changes returns the change tracker.
func (f *FS) Changes() *Changes { return f.changes }

// Host returns the host the client calls.
func (f *FS) Host() host.Host { return f.host }

func (f *FS) call(ctx context.Context, op string, args map[string]any) (any, error) {
	return f.host.Call(ctx, &host.Call{Kind: host.KindFS, Op: op, Args: args})
}

// Info is what stat and lstat return.
type Info struct {
	FName  string
	FSize  int64
	FMode  uint32 // permission bits
	Kind   string // "file", "dir" or "symlink"
	MtimeV time.Time
	Nlink  int64
	Ino    int64
}

// Name implements fs.FileInfo.
func (i *Info) Name() string { return i.FName }

// Size implements fs.FileInfo.
func (i *Info) Size() int64 { return i.FSize }

// Mode implements fs.FileInfo.
func (i *Info) Mode() fs.FileMode {
	m := fs.FileMode(i.FMode & 0o777)
	switch i.Kind {
	case "dir":
		m |= fs.ModeDir
	case "symlink":
		m |= fs.ModeSymlink
	}
	return m
}

// ModTime implements fs.FileInfo.
func (i *Info) ModTime() time.Time { return i.MtimeV }

// IsDir implements fs.FileInfo.
func (i *Info) IsDir() bool { return i.Kind == "dir" }

// Sys implements fs.FileInfo; it is always nil.
func (i *Info) Sys() any { return nil }

func num(m map[string]any, k string) float64 {
	switch v := m[k].(type) {
	case float64:
		return v
	case int:
		return float64(v)
	case int64:
		return float64(v)
	}
	return 0
}

func toInfo(p string, v any) *Info {
	m, _ := v.(map[string]any)
	typ, _ := m["type"].(string)
	ms := num(m, "mtimeMs")
	return &Info{
		FName:  path.Base(p),
		FSize:  int64(num(m, "size")),
		FMode:  uint32(num(m, "mode")) & 0o7777,
		Kind:   typ,
		MtimeV: time.UnixMilli(int64(ms)).Add(time.Duration((ms - float64(int64(ms))) * 1e6)),
		Nlink:  int64(num(m, "nlink")),
		Ino:    int64(num(m, "ino")),
	}
}

// Stat returns the description of p, following symlinks.
func (f *FS) Stat(ctx context.Context, p string) (*Info, error) {
	v, err := f.call(ctx, "stat", map[string]any{"path": p})
	if err != nil {
		return nil, err
	}
	return toInfo(p, v), nil
}

// Lstat returns the description of p itself.
func (f *FS) Lstat(ctx context.Context, p string) (*Info, error) {
	v, err := f.call(ctx, "lstat", map[string]any{"path": p})
	if err != nil {
		return nil, err
	}
	return toInfo(p, v), nil
}

// Entry is one directory entry.
type Entry struct {
	Name string
	Kind string // "file", "dir" or "symlink"
}

// ReadDir lists p, sorted by name in byte order.
func (f *FS) ReadDir(ctx context.Context, p string) ([]Entry, error) {
	v, err := f.call(ctx, "readdir", map[string]any{"path": p, "withFileTypes": true})
	if err != nil {
		return nil, err
	}
	l, _ := v.([]any)
	out := make([]Entry, 0, len(l))
	for _, e := range l {
		m, _ := e.(map[string]any)
		n, _ := m["name"].(string)
		t, _ := m["type"].(string)
		out = append(out, Entry{Name: n, Kind: t})
	}
	return out, nil
}

// ReadDirRecursive lists every entry below p, breadth first, with names
// relative to p.
func (f *FS) ReadDirRecursive(ctx context.Context, p string) ([]Entry, error) {
	v, err := f.call(ctx, "readdir", map[string]any{"path": p, "withFileTypes": true, "recursive": true})
	if err != nil {
		return nil, err
	}
	l, _ := v.([]any)
	out := make([]Entry, 0, len(l))
	for _, e := range l {
		m, _ := e.(map[string]any)
		n, _ := m["name"].(string)
		t, _ := m["type"].(string)
		out = append(out, Entry{Name: n, Kind: t})
	}
	return out, nil
}

func toBytes(v any) []byte {
	switch b := v.(type) {
	case []byte:
		return b
	case string:
		return []byte(b)
	}
	return nil
}

// Pread reads up to n bytes of p at off.
func (f *FS) Pread(ctx context.Context, p string, off int64, n int) ([]byte, error) {
	v, err := f.call(ctx, "pread", map[string]any{"path": p, "offset": off, "length": n})
	if err != nil {
		return nil, err
	}
	return toBytes(v), nil
}

// ReadAll reads the whole file p, in ranges when it is large, up to
// MaxReadBytes.
func (f *FS) ReadAll(ctx context.Context, p string) ([]byte, error) {
	v, err := f.call(ctx, "readFile", map[string]any{"path": p})
	if err == nil {
		return toBytes(v), nil
	}
	var ce *host.CallError
	if !errors.As(err, &ce) || ce.Code != "ERR_FS_FILE_TOO_LARGE" {
		return nil, err
	}
	var out []byte
	for {
		b, err := f.Pread(ctx, p, int64(len(out)), f.ChunkBytes)
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
		if f.MaxReadBytes > 0 && int64(len(out)) > f.MaxReadBytes {
			return nil, &host.LimitError{Limit: "MaxAllocBytes", Max: f.MaxReadBytes,
				What: fmt.Sprintf("file %s read whole (more than %d bytes)", p, len(out))}
		}
		if len(b) == 0 {
			return out, nil
		}
	}
}

// WriteFile writes data to p with a Node flag ("w", "wx", "a", "ax").
func (f *FS) WriteFile(ctx context.Context, p string, data []byte, flag string) error {
	f.changes.before(ctx, p)
	_, err := f.call(ctx, "writeFile", map[string]any{"path": p, "data": data, "flag": flag, "mode": 0o666})
	f.changes.wrote(p, err)
	return err
}

// Mkdir creates directory p (and its parents when recursive).
func (f *FS) Mkdir(ctx context.Context, p string, recursive bool) error {
	if recursive {
		v, err := f.call(ctx, "mkdir", map[string]any{"path": p, "recursive": true, "mode": 0o777})
		if first, ok := v.(string); ok && err == nil && first != "" {
			// every directory from first down to p is new.
			for d := p; ; d = path.Dir(d) {
				f.changes.created(d)
				if d == first || len(d) <= len(first) || d == "/" {
					break
				}
			}
		}
		return err
	}
	_, err := f.call(ctx, "mkdir", map[string]any{"path": p, "mode": 0o777})
	if err == nil {
		f.changes.created(p)
	}
	return err
}

// Remove removes p: a file or symlink, or a directory tree when recursive.
func (f *FS) Remove(ctx context.Context, p string, recursive, force bool) error {
	f.changes.beforeTree(ctx, p, recursive)
	_, err := f.call(ctx, "rm", map[string]any{"path": p, "recursive": recursive, "force": force})
	f.changes.wrote(p, err)
	return err
}

// Rmdir removes the empty directory p.
func (f *FS) Rmdir(ctx context.Context, p string) error {
	f.changes.before(ctx, p)
	_, err := f.call(ctx, "rmdir", map[string]any{"path": p})
	f.changes.wrote(p, err)
	return err
}

// Rename moves from to to.
func (f *FS) Rename(ctx context.Context, from, to string) error {
	f.changes.beforeTree(ctx, from, true)
	f.changes.before(ctx, to)
	_, err := f.call(ctx, "rename", map[string]any{"from": from, "to": to})
	f.changes.wrote(from, err)
	f.changes.wrote(to, err)
	if err == nil {
		f.changes.movedTree(from, to)
	}
	return err
}

// CopyFile copies the file from to to.
func (f *FS) CopyFile(ctx context.Context, from, to string) error {
	f.changes.before(ctx, to)
	_, err := f.call(ctx, "copyFile", map[string]any{"from": from, "to": to})
	f.changes.wrote(to, err)
	return err
}

// Symlink creates p as a link to target.
func (f *FS) Symlink(ctx context.Context, target, p string) error {
	f.changes.before(ctx, p)
	_, err := f.call(ctx, "symlink", map[string]any{"target": target, "path": p})
	f.changes.wrote(p, err)
	return err
}

// Link gives the file (or symlink) from the second name to: a hard link.
func (f *FS) Link(ctx context.Context, from, to string) error {
	f.changes.before(ctx, to)
	_, err := f.call(ctx, "link", map[string]any{"existingPath": from, "newPath": to})
	f.changes.wrote(to, err)
	return err
}

// Readlink returns the target of the link p.
func (f *FS) Readlink(ctx context.Context, p string) (string, error) {
	v, err := f.call(ctx, "readlink", map[string]any{"path": p})
	s, _ := v.(string)
	return s, err
}

// Realpath returns the canonical path of p.
func (f *FS) Realpath(ctx context.Context, p string) (string, error) {
	v, err := f.call(ctx, "realpath", map[string]any{"path": p})
	s, _ := v.(string)
	return s, err
}

// Utimes sets the times of p.
func (f *FS) Utimes(ctx context.Context, p string, t time.Time) error {
	ms := float64(t.UnixNano()) / 1e6
	_, err := f.call(ctx, "utimes", map[string]any{"path": p, "atimeMs": ms, "mtimeMs": ms})
	return err
}

// Chmod sets the permission bits of p.
func (f *FS) Chmod(ctx context.Context, p string, mode uint32) error {
	_, err := f.call(ctx, "chmod", map[string]any{"path": p, "mode": int64(mode)})
	if err == nil {
		f.changes.before(ctx, p)
		f.changes.wrote(p, nil)
	}
	return err
}

// Access checks that p exists (mode 0) or is readable, writable or
// executable.
func (f *FS) Access(ctx context.Context, p string, mode int) error {
	_, err := f.call(ctx, "access", map[string]any{"path": p, "mode": mode})
	return err
}

// Code returns the POSIX code of err ("ENOENT"), or "" when err is not a
// failed call.
func Code(err error) string {
	var ce *host.CallError
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}

// Text returns the strerror-style text of err for a GNU-style message
// ("No such file or directory").
func Text(err error) string {
	switch Code(err) {
	case "ENOENT":
		return "No such file or directory"
	case "EEXIST":
		return "File exists"
	case "ENOTDIR":
		return "Not a directory"
	case "EISDIR":
		return "Is a directory"
	case "ENOTEMPTY":
		return "Directory not empty"
	case "EINVAL":
		return "Invalid argument"
	case "EPERM":
		return "Operation not permitted"
	case "EACCES":
		return "Permission denied"
	case "EROFS":
		return "Read-only file system"
	case "ELOOP":
		return "Too many levels of symbolic links"
	case "ENAMETOOLONG":
		return "File name too long"
	case "ENOSPC":
		return "No space left on device"
	case "EFBIG":
		return "File too large"
	case "EXDEV":
		return "Invalid cross-device link"
	}
	var le *host.LimitError
	if errors.As(err, &le) {
		return le.Error()
	}
	if ce := (*host.CallError)(nil); errors.As(err, &ce) {
		return ce.Message
	}
	if err == nil {
		return ""
	}
	return strings.TrimSpace(err.Error())
}
