package vfs

import (
	"context"
	"io/fs"
	"strings"

	"github.com/nookdev/nook/internal/sqldb"
)

// Mkdir creates the directory name with perm (0 means DefaultDirMode; only
// the bits Chmod sets count). Its parent must exist; a final symlink is not
// followed.
func (f *FS) Mkdir(ctx context.Context, name string, perm fs.FileMode) error {
	const op = "mkdir"
	p, err := f.clean(op, name)
	if err != nil {
		return err
	}
	return f.update(ctx, op, p, func(t *wtx) error {
		_, err := t.mkdir(op, p, UnixMode(perm), false)
		return err
	})
}

// MkdirAll creates name and any missing parents; an existing directory is
// not an error. Symlinks to directories on the way are followed.
func (f *FS) MkdirAll(ctx context.Context, name string, perm fs.FileMode) error {
	const op = "mkdir"
	p, err := f.clean(op, name)
	if err != nil {
		return err
	}
	return f.update(ctx, op, p, func(t *wtx) error { return t.mkdirAll(op, p, UnixMode(perm)) })
}

// mkdir creates directory p; with existOK an existing directory (or a
// symlink to one) is fine. It returns the directory's resolved path.
func (t *wtx) mkdir(op, p string, perm uint32, existOK bool) (string, error) {
	f := t.f
	if p == "/" {
		if existOK {
			return "/", nil
		}
		return "", perr(op, p, EEXIST, "path exists")
	}
	res, err := f.resolve(t.c, p, existOK)
	if err != nil {
		return "", resolveErr(op, p, err, "parent directory missing")
	}
	if existOK && res.n != nil && res.n.typ == TypeDir {
		return res.path, nil
	}
	if err := f.checkWritable(op, p); err != nil {
		return "", err
	}
	if res.mnt != nil {
		return "", f.checkWritable(op, res.path)
	}
	if res.n != nil {
		if existOK && res.n.typ == TypeDir {
			return res.path, nil
		}
		return "", perr(op, p, EEXIST, "path exists")
	}
	if err := f.checkWritable(op, res.path); err != nil {
		return "", err
	}
	if err := f.checkName(op, res.path); err != nil {
		return "", err
	}
	if perm == 0 {
		perm = defaultDirMode
	}
	_, err = t.createNode(res, TypeDir, perm&0o7777, 0, "")
	return res.path, err
}

// mkdirAll creates p and its missing ancestors; p itself gets perm.
func (t *wtx) mkdirAll(op, p string, perm uint32) error {
	segs := strings.Split(strings.TrimPrefix(p, "/"), "/")
	cur := "/"
	for i, s := range segs {
		if s == "" {
			continue
		}
		mode := defaultDirMode
		if i == len(segs)-1 && perm != 0 {
			mode = perm
		}
		next := join(cur, s)
		resolved, err := t.mkdir(op, next, mode, true)
		if err != nil {
			if pe, ok := err.(*PathError); ok && pe.Code == EEXIST {
				if i < len(segs)-1 {
					return perr(op, join(next, segs[i+1]), ENOTDIR, "parent path segment is not a directory")
				}
				return perr(op, next, EEXIST, "path exists")
			}
			return err
		}
		// Continue from where a symlink led, so later segments land there.
		if resolved != next {
			cur = resolved
		} else {
			cur = next
		}
	}
	return nil
}

// ReadDir lists the directory name (following symlinks) in byte order of
// names, one page at a time.
func (f *FS) ReadDir(ctx context.Context, name string, page Page) (*Listing, error) {
	const op = "readdir"
	p, err := f.clean(op, name)
	if err != nil {
		return nil, err
	}
	limit, offset, err := f.pageOf(page)
	if err != nil {
		return nil, err
	}
	out := &Listing{}
	err = f.view(ctx, op, p, func(c *sqldb.Conn) error {
		res, err := f.resolve(c, p, true)
		if err != nil {
			return resolveErr(op, p, err, "no such path")
		}
		if res.n == nil {
			return perr(op, p, ENOENT, "no such path")
		}
		if res.n.typ != TypeDir {
			return perr(op, p, ENOTDIR, "not a directory")
		}
		if res.mnt != nil {
			return res.mnt.readDir(op, p, limit, offset, out)
		}
		entries, more, err := listDir(c, res.n.inode, p, "", offset, limit)
		if err != nil {
			return err
		}
		out.Entries = entries
		if more {
			out.NextOffset = offset + len(entries)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// listDir returns up to limit entries of directory inode whose names sort
// after `after`, skipping offset of them, and whether more follow. dirPath
// prefixes the entries' paths.
func listDir(c *sqldb.Conn, inode int64, dirPath, after string, offset, limit int) ([]Entry, bool, error) {
	return listDirFrom(c, inode, dirPath, after, false, offset, limit)
}

// listDirFrom is listDir with names after bound, or from it (inclusive).
func listDirFrom(c *sqldb.Conn, inode int64, dirPath, bound string, inclusive bool, offset, limit int) ([]Entry, bool, error) {
	// The offset skips directory entries alone (a range of the dirents'
	// primary key); only the page's entries are joined to their nodes.
	cmp := ">"
	if inclusive {
		cmp = ">="
	}
	sql := `SELECT d.name, n.inode, n.type, n.mode, n.size, n.mtime FROM
		(SELECT name, inode FROM vfs_dirents WHERE parent = ? AND name ` + cmp + ` ? ORDER BY name LIMIT ? OFFSET ?) d
		JOIN vfs_nodes n ON n.inode = d.inode ORDER BY d.name`
	s, err := c.Query(sql, inode, bound, limit+1, offset)
	if err != nil {
		return nil, false, err
	}
	var out []Entry
	for s.Step() {
		name := s.ColumnText(0)
		out = append(out, Entry{Path: join(dirPath, name), Name: name, Inode: s.ColumnInt64(1),
			Kind: Type(s.ColumnInt64(2)), Mode: FromUnixMode(uint32(s.ColumnInt64(3))) | Type(s.ColumnInt64(2)).mode(), Size: s.ColumnInt64(4), Mtime: nsTime(s.ColumnInt64(5))})
	}
	if err := sqldb.Done(s, nil); err != nil {
		return nil, false, err
	}
	if len(out) > limit {
		return out[:limit], true, nil
	}
	return out, false, nil
}
