package host

import (
	"context"
	"fmt"

	"github.com/nookdev/nook/vfs"
)

// The ops that only read: readFile, pread, stat, lstat, access, readdir,
// readdirPage, readlink, realpath.

func (o *FSOps) opReadFile(ctx context.Context, a *pathArgs) (any, error) {
	p := a.Path
	real, err := o.confine(ctx, "open", p, true)
	if err != nil {
		return nil, err
	}
	fi, err := o.FS.Stat(ctx, real)
	if err != nil {
		return nil, o.vfsErr(err, "open", p, "")
	}
	if fi.Kind == vfs.TypeDir {
		return nil, fsErr("EISDIR", "read", "", "")
	}
	max := o.lim().MaxCallBytes
	if fi.Bytes > max {
		return nil, tooLargeErr(fmt.Sprintf("file '%s'", p), fi.Bytes, max, p)
	}
	// The file may have grown since the stat: read one byte more than the
	// limit to tell.
	data, err := o.FS.ReadRange(ctx, real, 0, max+1)
	if err != nil {
		return nil, o.vfsErr(err, "read", p, "")
	}
	if int64(len(data)) > max {
		return nil, tooLargeErr(fmt.Sprintf("file '%s'", p), int64(len(data)), max, p)
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// preadArgs are the arguments of pread.
type preadArgs struct {
	Path   string `arg:"path"`
	Offset int64  `arg:"offset"`
	Length int64  `arg:"length"`
}

func (o *FSOps) opPread(ctx context.Context, a *preadArgs) (any, error) {
	p := a.Path
	off := a.Offset
	n := a.Length
	if off < 0 || n < 0 {
		return nil, fsErr("EINVAL", "read", "", "")
	}
	n = min(n, o.lim().MaxCallBytes)
	var data []byte
	err := o.inView(ctx, "read", p, func(v *vfs.View) error {
		real, err := o.confineIn(v, "read", p, true)
		if err != nil {
			return err
		}
		data, err = v.ReadRange(real, off, n)
		switch {
		case err == nil:
			return nil
		case vfs.Code(err) == vfs.EISDIR:
			return fsErr("EISDIR", "read", "", "")
		}
		return o.vfsErr(err, "read", p, "")
	})
	if err != nil {
		return nil, err
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

func (o *FSOps) opStat(ctx context.Context, a *pathArgs) (any, error) {
	return o.stat(ctx, a, "stat", true)
}

func (o *FSOps) opLstat(ctx context.Context, a *pathArgs) (any, error) {
	return o.stat(ctx, a, "lstat", false)
}

func (o *FSOps) stat(ctx context.Context, a *pathArgs, syscall string, follow bool) (any, error) {
	p := a.Path
	var fi *vfs.FileInfo
	err := o.inView(ctx, syscall, p, func(v *vfs.View) error {
		real, err := o.confineIn(v, syscall, p, follow)
		if err != nil {
			return err
		}
		if follow {
			fi, err = v.Stat(real)
		} else {
			fi, err = v.Lstat(real)
		}
		return o.vfsErr(err, syscall, p, "")
	})
	if err != nil {
		return nil, err
	}
	return statMap(fi), nil
}

// The modes of access.
const (
	rOK = 4
	wOK = 2
	xOK = 1
)

// accessArgs are the arguments of access.
type accessArgs struct {
	Path string `arg:"path"`
	Mode int64  `arg:"mode,opt"`
}

// opAccess checks that path exists and, for R_OK, W_OK and X_OK, that its
// owner permission bits allow the access (the sandbox's code owns every
// file). W_OK fails with EROFS under ReadOnly access or in a read-only mount.
func (o *FSOps) opAccess(ctx context.Context, a *accessArgs) (any, error) {
	p := a.Path
	mode := a.Mode
	if mode < 0 || mode > 7 {
		return nil, fsErr("EINVAL", "access", p, "")
	}
	real, err := o.confine(ctx, "access", p, true)
	if err != nil {
		return nil, err
	}
	fi, err := o.FS.Stat(ctx, real)
	if err != nil {
		return nil, o.vfsErr(err, "access", p, "")
	}
	if mode&wOK != 0 && (o.readOnly() || fi.ReadOnly) {
		return nil, fsErr("EROFS", "access", p, "")
	}
	if (mode&rOK != 0 && fi.Perm&0o400 == 0) || (mode&wOK != 0 && fi.Perm&0o200 == 0) ||
		(mode&xOK != 0 && fi.Perm&0o100 == 0) {
		return nil, fsErr("EACCES", "access", p, "")
	}
	return nil, nil
}

// readdirArgs are the arguments of readdir.
type readdirArgs struct {
	Path          string `arg:"path"`
	WithFileTypes bool   `arg:"withFileTypes,opt"`
	Recursive     bool   `arg:"recursive,opt"`
}

func (o *FSOps) opReaddir(ctx context.Context, a *readdirArgs) (any, error) {
	p := a.Path
	types := a.WithFileTypes
	recursive := a.Recursive
	real, err := o.confine(ctx, "scandir", p, true)
	if err != nil {
		return nil, err
	}
	max := o.lim().MaxDirEntries
	out := []any{}
	add := func(name string, e vfs.Entry) error {
		if len(out) >= max {
			return dirTooLargeErr("scandir", p, max)
		}
		if types {
			out = append(out, map[string]any{"name": name, "type": typeName(e.Kind)})
		} else {
			out = append(out, name)
		}
		return nil
	}
	entries, err := o.list(ctx, real, "scandir", p, max)
	if err != nil {
		return nil, err
	}
	// A recursive listing goes breadth first, as Node's does: a directory's
	// entries, then those of its subdirectories in order. Symlinks are
	// listed, not followed.
	type dir struct{ rel, real string }
	var queue []dir
	for _, e := range entries {
		if err := add(e.Name, e); err != nil {
			return nil, err
		}
		if recursive && e.Kind == vfs.TypeDir {
			queue = append(queue, dir{rel: e.Name, real: joinPath(real, e.Name)})
		}
	}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		entries, err := o.list(ctx, d.real, "scandir", p, max-len(out))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			name := d.rel + "/" + e.Name
			if err := add(name, e); err != nil {
				return nil, err
			}
			if e.Kind == vfs.TypeDir {
				queue = append(queue, dir{rel: name, real: joinPath(d.real, e.Name)})
			}
		}
	}
	return out, nil
}

// list returns the entries of the directory real in byte order of names,
// failing with ERR_FS_DIR_TOO_LARGE when there are more than max.
func (o *FSOps) list(ctx context.Context, real, syscall, p string, max int) ([]vfs.Entry, error) {
	var out []vfs.Entry
	offset := 0
	for {
		l, err := o.FS.ReadDir(ctx, real, vfs.Page{Offset: offset, Limit: max + 1 - len(out)})
		if err != nil {
			return nil, o.vfsErr(err, syscall, p, "")
		}
		out = append(out, l.Entries...)
		if len(out) > max {
			return nil, dirTooLargeErr(syscall, p, o.lim().MaxDirEntries)
		}
		if l.NextOffset == 0 || len(l.Entries) == 0 {
			return out, nil
		}
		offset = l.NextOffset
	}
}

// readdirPageArgs are the arguments of readdirPage.
type readdirPageArgs struct {
	Path   string `arg:"path"`
	Offset int64  `arg:"offset,opt"`
	Limit  int64  `arg:"limit,opt"`
}

// opReaddirPage returns one page of a directory's entries for fs.opendir:
// {entries: [{name, type, ino}], next} where next is the offset of the next page,
// 0 at the end. limit is clamped to MaxDirEntries.
func (o *FSOps) opReaddirPage(ctx context.Context, a *readdirPageArgs) (any, error) {
	p := a.Path
	offset := a.Offset
	limit := a.Limit
	max := int64(o.lim().MaxDirEntries)
	if limit <= 0 || limit > max {
		limit = max
	}
	if offset < 0 {
		return nil, fsErr("EINVAL", "scandir", p, "")
	}
	real, err := o.confine(ctx, "opendir", p, true)
	if err != nil {
		return nil, err
	}
	entries := []any{}
	next := int(offset)
	for int64(len(entries)) < limit {
		l, err := o.FS.ReadDir(ctx, real, vfs.Page{Offset: next, Limit: int(limit) - len(entries)})
		if err != nil {
			return nil, o.vfsErr(err, "opendir", p, "")
		}
		for _, e := range l.Entries {
			entries = append(entries, map[string]any{"name": e.Name, "type": typeName(e.Kind), "ino": float64(e.Inode)})
		}
		next = l.NextOffset
		if next == 0 || len(l.Entries) == 0 {
			next = 0
			break
		}
	}
	return map[string]any{"entries": entries, "next": float64(next)}, nil
}

func (o *FSOps) opReadlink(ctx context.Context, a *pathArgs) (any, error) {
	p := a.Path
	real, err := o.confine(ctx, "readlink", p, false)
	if err != nil {
		return nil, err
	}
	fi, err := o.FS.Lstat(ctx, real)
	if err != nil {
		return nil, o.vfsErr(err, "readlink", p, "")
	}
	if fi.Kind != vfs.TypeSymlink {
		return nil, fsErr("EINVAL", "readlink", p, "")
	}
	return fi.Target, nil
}

func (o *FSOps) opRealpath(ctx context.Context, a *pathArgs) (any, error) {
	p := a.Path
	real, err := o.confine(ctx, "realpath", p, true)
	if err != nil {
		return nil, err
	}
	if _, err := o.FS.Stat(ctx, real); err != nil {
		return nil, o.vfsErr(err, "realpath", p, "")
	}
	return real, nil
}
