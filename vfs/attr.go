package vfs

import (
	"context"
	"io/fs"
	"strings"
	"time"
)

// Symlink creates a symlink at name holding target verbatim (relative or
// absolute; it may dangle). It never replaces an existing path. Targets are
// resolved inside the workspace: ".." cannot climb above "/".
func (f *FS) Symlink(ctx context.Context, target, name string) error {
	const op = "symlink"
	p, err := f.clean(op, name)
	if err != nil {
		return err
	}
	switch {
	case p == "/":
		return perr(op, p, EEXIST, "cannot symlink onto root")
	case target == "":
		return perr(op, p, EINVAL, "empty symlink target")
	case strings.IndexByte(target, 0) >= 0:
		return perr(op, p, EINVAL, "symlink target contains NUL byte")
	case len(target) > f.lim.MaxPathLength:
		return perr(op, p, ENAMETOOLONG, "symlink target exceeds MaxPathLength")
	}
	return f.update(ctx, op, p, func(t *wtx) error {
		if err := f.checkWritable(op, p); err != nil {
			return err
		}
		res, err := f.resolve(t.c, p, false)
		if err != nil {
			return resolveErr(op, p, err, "parent directory missing")
		}
		if res.n != nil {
			return perr(op, p, EEXIST, "path exists")
		}
		if err := f.checkWritable(op, res.path); err != nil {
			return err
		}
		if err := f.checkName(op, res.path); err != nil {
			return err
		}
		_, err = t.createNode(res, TypeSymlink, symlinkMode, int64(len(target)), target)
		return err
	})
}

// Chmod sets the permission bits of the node at name (following symlinks)
// to mode.Perm() plus its fs.ModeSetuid, fs.ModeSetgid and fs.ModeSticky
// bits, as os.Chmod does; other bits of mode are ignored.
func (f *FS) Chmod(ctx context.Context, name string, mode fs.FileMode) error {
	u := UnixMode(mode)
	return f.setattr(ctx, "chmod", name, OpChmod, `UPDATE vfs_nodes SET mode = ?, ctime = ?, rev = ? WHERE inode = ?`,
		func(now int64) []any { return []any{int64(u), now} })
}

// Chtimes sets the access and modification times of the node at name
// (following symlinks). A zero time.Time leaves that time unchanged.
func (f *FS) Chtimes(ctx context.Context, name string, atime, mtime time.Time) error {
	return f.setattr(ctx, "chtimes", name, OpChtimes,
		`UPDATE vfs_nodes SET atime = coalesce(?, atime), mtime = coalesce(?, mtime), ctime = ?, rev = ? WHERE inode = ?`,
		func(now int64) []any { return []any{nsOrNil(atime), nsOrNil(mtime), now} })
}

// Lchtimes is Chtimes on the node at name itself: a final symlink is not
// followed (lutimes(3)).
func (f *FS) Lchtimes(ctx context.Context, name string, atime, mtime time.Time) error {
	return f.setattrAt(ctx, "lchtimes", name, false, OpChtimes,
		`UPDATE vfs_nodes SET atime = coalesce(?, atime), mtime = coalesce(?, mtime), ctime = ?, rev = ? WHERE inode = ?`,
		func(now int64) []any { return []any{nsOrNil(atime), nsOrNil(mtime), now} })
}

func nsOrNil(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}

// setattr runs an UPDATE of one node's attributes; args returns its leading
// arguments, to which the revision and inode are appended.
func (f *FS) setattr(ctx context.Context, op, name string, chop ChangeOp, sql string, args func(now int64) []any) error {
	return f.setattrAt(ctx, op, name, true, chop, sql, args)
}

// setattrAt is setattr, following a final symlink when follow is set.
func (f *FS) setattrAt(ctx context.Context, op, name string, follow bool, chop ChangeOp, sql string, args func(now int64) []any) error {
	p, err := f.clean(op, name)
	if err != nil {
		return err
	}
	return f.update(ctx, op, p, func(t *wtx) error {
		if err := f.checkWritable(op, p); err != nil {
			return err
		}
		res, err := f.resolve(t.c, p, follow)
		if err != nil {
			return resolveErr(op, p, err, "no such path")
		}
		if res.n == nil {
			return perr(op, p, ENOENT, "no such path")
		}
		if err := f.checkWritable(op, res.path); err != nil {
			return err
		}
		t.record(chop, res.path, "", res.n.typ)
		return t.c.Exec(sql, append(args(t.now), t.rev, res.n.inode)...)
	})
}
