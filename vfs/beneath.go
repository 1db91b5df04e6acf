package vfs

import (
	"context"
	"strings"

	"github.com/nookdev/nook/internal/sqldb"
)

// ResolveBeneath expands the symlinks of name as a path lookup would and
// returns the canonical path it reaches, refusing with EACCES any path that
// leaves root: name itself must lie under root, and so must every
// expansion of a symlink met on the way (a link's target joined to the
// directory holding it, or to "/" when absolute, plus the rest of the
// path), even when a later link would lead back inside. The final component
// is expanded only when follow is set. A missing component ends the walk:
// the rest of the path is joined unexpanded, since nothing below a missing
// directory can redirect it. More than MaxSymlinkHops links fail with
// ELOOP; a non-directory in the middle with ENOTDIR.
//
// The walk reads one snapshot, in one transaction, with one lookup per
// component. Sandboxes use it to confine the paths code gives them; it is
// not atomic with the operation that follows (see the callers).
func (f *FS) ResolveBeneath(ctx context.Context, root, name string, follow bool) (string, error) {
	p, root, denied, err := f.beneathArgs(root, name)
	if err != nil {
		return "", err
	}
	var out string
	err = f.view(ctx, "resolve", p, func(c *sqldb.Conn) error {
		out, err = f.beneath(c, root, p, follow, denied, nil)
		return err
	})
	return out, err
}

// beneathArgs cleans the arguments of ResolveBeneath and checks that name
// lies under root; denied is the error of a path that leaves root.
func (f *FS) beneathArgs(root, name string) (p, croot string, denied func() error, err error) {
	const op = "resolve"
	p, err = f.clean(op, name)
	if err != nil {
		return "", "", nil, err
	}
	croot, err = Clean(root)
	if err != nil {
		return "", "", nil, err
	}
	denied = func() error { return perr(op, p, EACCES, "path leaves "+croot) }
	if !within(p, croot) {
		return "", "", nil, denied()
	}
	return p, croot, denied, nil
}

// ResolveBeneath is FS.ResolveBeneath in the batch's transaction, which
// holds the write lock: nothing can change the path between the walk and
// the batch's operations on what it returns.
func (b *Batch) ResolveBeneath(root, name string, follow bool) (string, error) {
	p, root, denied, err := b.f.beneathArgs(root, name)
	if err != nil {
		return "", err
	}
	return b.f.beneath(b.t.c, root, p, follow, denied, nil)
}

// ResolveBeneath is FS.ResolveBeneath in the View's snapshot. A Stat,
// Lstat or ReadRange of the path it returns then costs no second walk.
func (v *View) ResolveBeneath(root, name string, follow bool) (string, error) {
	p, root, denied, err := v.f.beneathArgs(root, name)
	if err != nil {
		return "", err
	}
	var last resolution
	out, err := v.f.beneath(v.c, root, p, follow, denied, &last)
	if err == nil && last.path == out && out != "" {
		// The walk's end, as resolve would find it: no symlink is left on
		// the canonical path, and no mount (beneath stops at one).
		v.remember(out, last)
	}
	return out, err
}

// beneath walks p below root (see ResolveBeneath). When last is not nil
// and the walk ends at the final component, reached with follow set in a
// workspace without mounts, *last is where it ended, as resolve of the
// returned path would answer.
func (f *FS) beneath(c *sqldb.Conn, root, p string, follow bool, denied func() error, last *resolution) (string, error) {
	mounts := *f.mounts.Load()
	segs := splitBelow(p, root)
	// Find the inode of root itself, through its own components (root is
	// the embedder's choice: a link on the way to it is followed freely).
	res, err := f.resolve(c, root, true)
	if err != nil {
		return "", resolveErr("resolve", root, err, "no such path")
	}
	if res.n == nil {
		// The root does not exist: neither does anything below it.
		return p, nil
	}
	if res.mnt != nil {
		return p, nil
	}
	if res.n.typ != TypeDir {
		return "", perr("resolve", p, ENOTDIR, "not a directory")
	}
	cur, curPath, hops := res.n.inode, root, 0
	for i := 0; i < len(segs); i++ {
		if len(mounts) > 0 && mountAt(mounts, curPath) != nil {
			return joinAll(curPath, segs[i:]), nil
		}
		name := segs[i]
		final := i == len(segs)-1
		next := join(curPath, name)
		if final && !follow {
			return next, nil
		}
		n, err := lookup(c, cur, name)
		if err != nil {
			return "", err
		}
		if last != nil && final && len(mounts) == 0 && (n == nil || n.typ != TypeSymlink) {
			*last = resolution{path: next, parent: cur, name: name, n: n}
		}
		if n == nil {
			return joinAll(next, segs[i+1:]), nil
		}
		switch n.typ {
		case TypeSymlink:
			if hops++; hops > MaxSymlinkHops {
				return "", perr("resolve", p, ELOOP, "too many symlinks resolving path")
			}
			base := curPath
			if strings.HasPrefix(n.target, "/") {
				base = "/"
			}
			expanded := clampJoin(base, n.target, segs[i+1:])
			if !within(expanded, root) {
				return "", denied()
			}
			if len(expanded) > MaxPathLength {
				return "", perr("resolve", p, ENAMETOOLONG, "path too long")
			}
			segs, cur, curPath, i = splitBelow(expanded, root), res.n.inode, root, -1
		case TypeDir:
			cur, curPath = n.inode, next
		default:
			if !final {
				return "", perr("resolve", p, ENOTDIR, "not a directory")
			}
			return next, nil
		}
	}
	return curPath, nil
}

// splitBelow returns the segments of p below dir (p within dir).
func splitBelow(p, dir string) []string {
	rest := strings.TrimPrefix(p, dir)
	rest = strings.TrimPrefix(rest, "/")
	if rest == "" {
		return nil
	}
	return strings.Split(rest, "/")
}

func joinAll(dir string, segs []string) string {
	for _, s := range segs {
		dir = join(dir, s)
	}
	return dir
}
