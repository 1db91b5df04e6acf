package vfs

import (
	"context"

	"github.com/nookdev/nook/internal/sqldb"
)

// Remove deletes the file, symlink or directory at name. A symlink is removed
// itself, never its target. A non-empty directory needs opts.Recursive, which
// removes the whole subtree in one transaction; opts.Force makes a missing
// path (or missing parent) a success. Open handles keep reading a removed
// file until they close.
func (f *FS) Remove(ctx context.Context, name string, opts *RemoveOptions) error {
	const op = "rm"
	if opts == nil {
		opts = &RemoveOptions{}
	}
	p, err := f.clean(op, name)
	if err != nil {
		return err
	}
	return f.update(ctx, op, p, func(t *wtx) error { return f.removeInTx(t, p, opts) })
}

// removeInTx removes canonical path p.
func (f *FS) removeInTx(t *wtx, p string, opts *RemoveOptions) error {
	const op = "rm"
	if p == "/" {
		return perr(op, p, EPERM, "cannot remove the root directory")
	}
	if err := f.checkRemovable(op, p); err != nil {
		return err
	}
	res, err := f.resolve(t.c, p, false)
	if err != nil {
		if opts.Force && (Code(err) == ENOENT || Code(err) == ENOTDIR) {
			return nil
		}
		return resolveErr(op, p, err, "no such path")
	}
	if res.n == nil {
		if opts.Force {
			return nil
		}
		return perr(op, p, ENOENT, "no such path")
	}
	if err := f.checkRemovable(op, res.path); err != nil {
		return err
	}
	if res.n.typ == TypeDir && !opts.Recursive {
		empty, err := isEmptyDir(t.c, res.n.inode)
		if err != nil {
			return err
		}
		if !empty {
			return perr(op, p, ENOTEMPTY, "directory not empty")
		}
	}
	if err := t.unlink(res); err != nil {
		return err
	}
	t.record(OpRemove, res.path, "", res.n.typ)
	return t.touchDir(res.parent)
}

func isEmptyDir(c *sqldb.Conn, inode int64) (bool, error) {
	s, err := c.Query(`SELECT 1 FROM vfs_dirents WHERE parent = ? LIMIT 1`, inode)
	if err != nil {
		return false, err
	}
	has := s.Step()
	return !has, sqldb.Done(s, nil)
}

// unlink removes the entry res and, when it was a directory, everything
// below it. Files still open in this process survive, unlinked, until their
// last handle closes.
func (t *wtx) unlink(res resolution) error {
	if err := t.c.Exec(`DELETE FROM vfs_dirents WHERE parent = ? AND name = ?`, res.parent, res.name); err != nil {
		return err
	}
	if res.n.typ != TypeDir {
		return t.release(res.n.inode, res.n.typ, res.n.size)
	}
	type victim struct {
		inode, size int64
		typ         Type
	}
	s, err := t.c.Query(`WITH RECURSIVE sub(inode) AS (
			SELECT ? UNION ALL SELECT d.inode FROM vfs_dirents d JOIN sub ON d.parent = sub.inode)
		SELECT n.inode, n.type, n.size FROM sub JOIN vfs_nodes n ON n.inode = sub.inode`, res.n.inode)
	if err != nil {
		return err
	}
	var victims []victim
	for s.Step() {
		victims = append(victims, victim{inode: s.ColumnInt64(0), typ: Type(s.ColumnInt64(1)), size: s.ColumnInt64(2)})
	}
	if err := sqldb.Done(s, nil); err != nil {
		return err
	}
	for _, v := range victims {
		if v.typ == TypeDir {
			if err := t.c.Exec(`DELETE FROM vfs_dirents WHERE parent = ?`, v.inode); err != nil {
				return err
			}
		}
		if err := t.release(v.inode, v.typ, v.size); err != nil {
			return err
		}
	}
	return nil
}

// release drops one link to a node whose directory entry is already gone.
// A node with other names (hard links) only loses one from its count; the
// last name deletes it (and its content) unless a handle in this process
// holds it.
func (t *wtx) release(inode int64, typ Type, size int64) error {
	t.dNodes--
	if typ != TypeDir {
		if err := t.c.Exec(`UPDATE vfs_nodes SET nlink = nlink - 1, ctime = ?, rev = ? WHERE inode = ? AND nlink > 1`, t.now, t.rev, inode); err != nil {
			return err
		}
		if t.c.Changes() > 0 {
			return nil
		}
	}
	if typ == TypeFile {
		t.dBytes -= size
	}
	if typ == TypeFile && t.f.isOpen(inode) {
		return t.c.Exec(`UPDATE vfs_nodes SET nlink = 0, ctime = ?, rev = ? WHERE inode = ?`, t.now, t.rev, inode)
	}
	return t.deleteNode(inode, typ)
}

// deleteNode deletes a node row and its content.
func (t *wtx) deleteNode(inode int64, typ Type) error {
	if typ == TypeFile {
		if err := t.dropChunks(inode, 0); err != nil {
			return err
		}
	}
	return t.c.Exec(`DELETE FROM vfs_nodes WHERE inode = ?`, inode)
}
