package vfs

import (
	"strings"

	"github.com/nookdev/nook/internal/sqldb"
)

// MaxSymlinkHops is how many symlinks one resolution may follow (Linux's
// SYMLOOP_MAX), intermediate and final links together.
const MaxSymlinkHops = 40

const rootInode = 1

// node is a row of vfs_nodes.
type node struct {
	inode  int64
	typ    Type
	mode   uint32
	size   int64
	nlink  int64
	atime  int64
	mtime  int64
	ctime  int64
	rev    int64
	target string
}

func (n *node) info(path string) *FileInfo {
	return &FileInfo{Path: path, Inode: n.inode, Kind: n.typ, Perm: FromUnixMode(n.mode), Bytes: n.size, Nlink: n.nlink,
		Atime: nsTime(n.atime), Mtime: nsTime(n.mtime), Ctime: nsTime(n.ctime), Rev: n.rev, Target: n.target}
}

const nodeCols = `n.inode, n.type, n.mode, n.size, n.nlink, n.atime, n.mtime, n.ctime, n.rev, n.target`

func scanNode(s interface {
	ColumnInt64(int) int64
	ColumnText(int) string
}, base int) *node {
	return &node{
		inode: s.ColumnInt64(base), typ: Type(s.ColumnInt64(base + 1)), mode: uint32(s.ColumnInt64(base + 2)),
		size: s.ColumnInt64(base + 3), nlink: s.ColumnInt64(base + 4), atime: s.ColumnInt64(base + 5),
		mtime: s.ColumnInt64(base + 6), ctime: s.ColumnInt64(base + 7), rev: s.ColumnInt64(base + 8),
		target: s.ColumnText(base + 9),
	}
}

// getNode loads a node by inode; nil when it does not exist.
func getNode(c *sqldb.Conn, inode int64) (*node, error) {
	s, err := c.Query(`SELECT `+nodeCols+` FROM vfs_nodes n WHERE n.inode = ?`, inode)
	if err != nil {
		return nil, err
	}
	var n *node
	if s.Step() {
		n = scanNode(s, 0)
	}
	return n, sqldb.Done(s, nil)
}

// lookup finds name in directory parent; nil when absent.
func lookup(c *sqldb.Conn, parent int64, name string) (*node, error) {
	s, err := c.Query(`SELECT inode FROM vfs_dirents WHERE parent = ? AND name = ?`, parent, name)
	if err != nil {
		return nil, err
	}
	inode := int64(-1)
	if s.Step() {
		inode = s.ColumnInt64(0)
	}
	if err := sqldb.Done(s, nil); err != nil || inode < 0 {
		return nil, err
	}
	return getNode(c, inode)
}

// resolution is where a path leads.
type resolution struct {
	path   string // canonical path after expanding symlinks (the final one only if followed)
	parent int64  // inode of the directory holding the final name (0 for "/")
	name   string // final name ("" for "/")
	n      *node  // the node, or nil when the final name does not exist
	mnt    *mountRef
}

// errors resolve reports; callers reword them for their operation.
var (
	errParentMissing = perr("", "", ENOENT, "parent directory missing")
	errParentNotDir  = perr("", "", ENOTDIR, "parent path segment is not a directory")
	errLoop          = perr("", "", ELOOP, "too many symlinks resolving path")
)

// resolve walks canonical path p from the root. Symlinks in intermediate
// components are always followed; a final symlink only when follow is set.
// A dangling final symlink that is followed leads to its target's location
// (n == nil), where a create will put the file.
func (f *FS) resolve(c *sqldb.Conn, p string, follow bool) (resolution, error) {
	mounts := *f.mounts.Load()
	if p == "/" {
		if m := mountAt(mounts, "/"); m != nil {
			return m.resolve("/", nil)
		}
		root, err := getNode(c, rootInode)
		if err != nil {
			return resolution{}, err
		}
		return resolution{path: "/", n: root}, nil
	}
	hops := 0
	segs := strings.Split(p[1:], "/")
	cur, curPath := int64(rootInode), "/"
	for i := 0; i < len(segs); i++ {
		if len(mounts) > 0 {
			if m := mountAt(mounts, curPath); m != nil {
				return m.resolve(curPath, segs[i:])
			}
		}
		name := segs[i]
		last := i == len(segs)-1
		n, err := lookup(c, cur, name)
		if err != nil {
			return resolution{}, err
		}
		if n == nil {
			if last {
				return resolution{path: join(curPath, name), parent: cur, name: name}, nil
			}
			return resolution{}, errParentMissing
		}
		if n.typ == TypeSymlink && (!last || follow) {
			if hops++; hops > MaxSymlinkHops {
				return resolution{}, errLoop
			}
			base := curPath
			if strings.HasPrefix(n.target, "/") {
				base = "/"
			}
			expanded := clampJoin(base, n.target, segs[i+1:])
			if expanded == "/" {
				return f.resolve(c, "/", follow)
			}
			segs = strings.Split(expanded[1:], "/")
			cur, curPath, i = rootInode, "/", -1
			continue
		}
		if last {
			p := join(curPath, name)
			if n.typ == TypeDir && len(mounts) > 0 {
				if m := mountAt(mounts, p); m != nil {
					return m.resolve(p, nil)
				}
			}
			return resolution{path: p, parent: cur, name: name, n: n}, nil
		}
		if n.typ != TypeDir {
			return resolution{}, errParentNotDir
		}
		cur, curPath = n.inode, join(curPath, name)
	}
	panic("unreachable")
}

// clampJoin joins base, a symlink target and the remaining segments into a
// canonical path; ".." at the root stays at the root, as symlink targets are
// resolved inside the workspace.
func clampJoin(base, target string, rest []string) string {
	segs := []string{}
	add := func(s string) {
		switch s {
		case "", ".":
		case "..":
			if len(segs) > 0 {
				segs = segs[:len(segs)-1]
			}
		default:
			segs = append(segs, s)
		}
	}
	for _, s := range strings.Split(base, "/") {
		add(s)
	}
	for _, s := range strings.Split(target, "/") {
		add(s)
	}
	for _, s := range rest {
		add(s)
	}
	return "/" + strings.Join(segs, "/")
}

// resolveErr rewords a resolution error for op on path.
func resolveErr(op, path string, err error, missingText string) error {
	if pe, ok := err.(*PathError); ok && pe.Op == "" {
		text := pe.Text
		if pe.Code == ENOENT && missingText != "" {
			text = missingText
		}
		return &PathError{Op: op, Path: path, Code: pe.Code, Text: text}
	}
	return err
}
