package vfs

import "context"

// Link gives the file or symlink at oldname a second name, newname, with
// link(2)'s rules: both names then lead to one node (same inode, content,
// mode and times), whose Nlink counts its names, and the node lives until
// its last name is removed (and its last handle closed). A final symlink at
// oldname is not followed: the link names the symlink itself, as Linux does.
//
// Errors: ENOENT when oldname does not exist or newname's parent is missing,
// EEXIST when newname exists (even as a dangling symlink), EPERM when oldname
// is a directory, EXDEV when oldname is in a read-only mount and newname is
// not (a mount is another device), EROFS when newname is in one, ENOTDIR
// when a parent segment is not a directory.
//
// A link adds an entry (MaxEntries) but no bytes: Usage counts a file's
// bytes once however many names it has.
func (f *FS) Link(ctx context.Context, oldname, newname string) error {
	const op = "link"
	from, err := f.clean(op, oldname)
	if err != nil {
		return err
	}
	to, err := f.clean(op, newname)
	if err != nil {
		return err
	}
	return f.update(ctx, op, to, func(t *wtx) error { return f.linkInTx(t, from, to) })
}

// Link gives oldname a second name, as FS.Link.
func (b *Batch) Link(oldname, newname string) error {
	from, err := b.f.clean("link", oldname)
	if err != nil {
		return err
	}
	to, err := b.f.clean("link", newname)
	if err != nil {
		return err
	}
	return b.f.linkInTx(b.t, from, to)
}

// linkInTx links canonical path from under the new canonical name to.
func (f *FS) linkInTx(t *wtx, from, to string) error {
	const op = "link"
	src, err := f.resolve(t.c, from, false)
	if err != nil {
		return resolveErr(op, from, err, "no such file")
	}
	if src.n == nil {
		return perr(op, from, ENOENT, "no such file")
	}
	if src.n.typ == TypeDir {
		return perr(op, from, EPERM, "cannot hard-link a directory")
	}
	if to == "/" {
		return perr(op, to, EEXIST, "path exists")
	}
	dst, err := f.resolve(t.c, to, false)
	if err != nil {
		return resolveErr(op, to, err, "parent directory missing")
	}
	if dst.n != nil {
		return perr(op, to, EEXIST, "path exists")
	}
	if src.mnt != nil || f.checkWritable(op, src.path) != nil {
		if err := f.checkWritable(op, dst.path); err != nil {
			return err
		}
		return perr(op, from, EXDEV, "cannot link across a read-only mount")
	}
	if err := f.checkWritable(op, to); err != nil {
		return err
	}
	if err := f.checkWritable(op, dst.path); err != nil {
		return err
	}
	if err := f.checkName(op, dst.path); err != nil {
		return err
	}
	if err := t.c.Exec(`INSERT INTO vfs_dirents(parent, name, inode) VALUES (?, ?, ?)`, dst.parent, dst.name, src.n.inode); err != nil {
		return err
	}
	if err := t.c.Exec(`UPDATE vfs_nodes SET nlink = nlink + 1, ctime = ?, rev = ? WHERE inode = ?`, t.now, t.rev, src.n.inode); err != nil {
		return err
	}
	t.dNodes++
	t.record(OpLink, dst.path, src.path, src.n.typ)
	return t.touchDir(dst.parent)
}
