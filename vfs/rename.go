package vfs

import "context"

// Rename moves oldname to newname atomically, with rename(2)'s rules: an
// existing file or symlink at newname is replaced; an existing directory is
// replaced only by a directory and only when empty; a directory cannot move
// into itself; renaming a path onto itself (or onto another name of the same
// node) does nothing. Neither path's final symlink is followed. Open handles
// keep working, as they hold the file, not its name.
func (f *FS) Rename(ctx context.Context, oldname, newname string) error {
	const op = "rename"
	from, err := f.clean(op, oldname)
	if err != nil {
		return err
	}
	to, err := f.clean(op, newname)
	if err != nil {
		return err
	}
	return f.update(ctx, op, from, func(t *wtx) error { return f.renameInTx(t, from, to) })
}

// renameInTx renames canonical path from to canonical path to.
func (f *FS) renameInTx(t *wtx, from, to string) error {
	const op = "rename"
	if from == "/" {
		return perr(op, from, EINVAL, "cannot rename root")
	}
	if to == "/" {
		return perr(op, to, EINVAL, "cannot rename onto root")
	}
	for _, p := range []string{from, to} {
		if err := f.checkRemovable(op, p); err != nil {
			return err
		}
	}
	src, err := f.resolve(t.c, from, false)
	if err != nil {
		return resolveErr(op, from, err, "no such path")
	}
	if src.n == nil {
		return perr(op, from, ENOENT, "no such path")
	}
	dst, err := f.resolve(t.c, to, false)
	if err != nil {
		return resolveErr(op, to, err, "parent directory missing")
	}
	for _, p := range []string{src.path, dst.path} {
		if err := f.checkRemovable(op, p); err != nil {
			return err
		}
	}
	if src.path == dst.path || (dst.n != nil && dst.n.inode == src.n.inode) {
		return nil
	}
	if src.n.typ == TypeDir && within(dst.path, src.path) {
		return perr(op, to, EINVAL, "cannot rename a directory into itself")
	}
	if d := dst.n; d != nil {
		switch {
		case src.n.typ == TypeDir && d.typ != TypeDir:
			return perr(op, to, ENOTDIR, "cannot overwrite non-directory")
		case src.n.typ != TypeDir && d.typ == TypeDir:
			return perr(op, to, EISDIR, "cannot overwrite directory")
		case d.typ == TypeDir:
			empty, err := isEmptyDir(t.c, d.inode)
			if err != nil {
				return err
			}
			if !empty {
				return perr(op, to, ENOTEMPTY, "not empty")
			}
		}
		if err := t.unlink(dst); err != nil {
			return err
		}
	} else if err := f.checkName(op, dst.path); err != nil {
		return err
	}
	if err := t.c.Exec(`UPDATE vfs_dirents SET parent = ?, name = ? WHERE parent = ? AND name = ?`,
		dst.parent, dst.name, src.parent, src.name); err != nil {
		return err
	}
	if err := t.c.Exec(`UPDATE vfs_nodes SET ctime = ?, rev = ? WHERE inode = ?`, t.now, t.rev, src.n.inode); err != nil {
		return err
	}
	t.record(OpRename, dst.path, src.path, src.n.typ)
	if err := t.touchDir(src.parent); err != nil {
		return err
	}
	return t.touchDir(dst.parent)
}
