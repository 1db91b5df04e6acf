package vfs

import (
	"errors"
	"strings"

	"github.com/nookdev/nook/internal/sqldb"
)

// walkPage is how many directory entries the walker reads per query, so a
// huge directory is never loaded at once.
const walkPage = 128

// walkFrame is one directory on the walker's stack.
type walkFrame struct {
	inode int64     // stored directory (when mnt is nil)
	mnt   *mountRef // mounted directory
	path  string    // absolute path
	rel   string    // path relative to the walk's root ("" for the root)
	after string    // last name read
	from  string    // when set, the first page starts at this name (a resumed walk)
	page  []Entry
	i     int
	done  bool // no more pages
}

// visitFunc is called for every entry, in depth-first pre-order with names
// in byte order. rel is the entry's path relative to the walk's root.
// descend asks the walker to enter a directory; stop ends the walk.
type visitFunc func(e *Entry, rel string) (descend, stop bool, err error)

// errResumeLost reports that a walk cannot resume where a cursor points:
// the path there is gone, or lies in a mount. Callers walk from the start.
var errResumeLost = errors.New("walk position lost")

// walk visits everything below the directory res (which must be one).
// Symlinks are reported, never followed. With from set (a path relative to
// res), the walk starts at that entry, as if everything before it in walk
// order had been visited.
func (f *FS) walk(c *sqldb.Conn, res resolution, from string, visit visitFunc) error {
	mounts := *f.mounts.Load()
	root := &walkFrame{path: res.path, mnt: res.mnt}
	if res.n != nil {
		root.inode = res.n.inode
	}
	if root.mnt == nil {
		if m := mountAt(mounts, res.path); m != nil {
			root.mnt = &mountRef{m: m, rel: "."}
		}
	}
	stack := []*walkFrame{root}
	if from != "" {
		if root.mnt != nil {
			return errResumeLost
		}
		segs := strings.Split(from, "/")
		fr := root
		for _, s := range segs[:len(segs)-1] {
			n, err := lookup(c, fr.inode, s)
			if err != nil {
				return err
			}
			p := join(fr.path, s)
			if n == nil || n.typ != TypeDir || mountAt(mounts, p) != nil {
				return errResumeLost
			}
			fr.after = s // its later siblings come after this subtree
			child := &walkFrame{inode: n.inode, path: p, rel: joinRel(fr.rel, s)}
			stack = append(stack, child)
			fr = child
		}
		fr.from = segs[len(segs)-1]
	}
	for len(stack) > 0 {
		fr := stack[len(stack)-1]
		if fr.i >= len(fr.page) {
			if fr.done {
				stack = stack[:len(stack)-1]
				continue
			}
			if err := fr.load(c); err != nil {
				return err
			}
			if len(fr.page) == 0 {
				stack = stack[:len(stack)-1]
				continue
			}
		}
		e := &fr.page[fr.i]
		fr.i++
		fr.after = e.Name
		rel := e.Name
		if fr.rel != "" {
			rel = fr.rel + "/" + e.Name
		}
		descend, stop, err := visit(e, rel)
		if err != nil || stop {
			return err
		}
		if !descend || e.Kind != TypeDir {
			continue
		}
		child := &walkFrame{inode: e.Inode, path: e.Path, rel: rel}
		switch {
		case fr.mnt != nil:
			child.mnt = &mountRef{m: fr.mnt.m, rel: joinRel(fr.mnt.rel, e.Name)}
		case len(mounts) > 0:
			if m := mountAt(mounts, e.Path); m != nil {
				child.mnt = &mountRef{m: m, rel: "."}
			}
		}
		stack = append(stack, child)
	}
	return nil
}

// load reads the frame's next page of entries.
func (fr *walkFrame) load(c *sqldb.Conn) error {
	fr.i = 0
	if fr.mnt != nil {
		all, err := fr.mnt.entries(fr.path)
		fr.page, fr.done = all, true
		return err
	}
	bound, inclusive := fr.after, false
	if fr.from != "" {
		bound, inclusive, fr.from = fr.from, true, ""
	}
	page, more, err := listDirFrom(c, fr.inode, fr.path, bound, inclusive, 0, walkPage)
	fr.page, fr.done = page, !more
	return err
}

func joinRel(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

// resolveDir resolves p (following symlinks) and requires a directory.
func (f *FS) resolveDir(c *sqldb.Conn, op, p string) (resolution, error) {
	res, err := f.resolve(c, p, true)
	if err != nil {
		return res, resolveErr(op, p, err, "no such path")
	}
	if res.n == nil {
		return res, perr(op, p, ENOENT, "no such path")
	}
	if res.n.typ != TypeDir {
		return res, perr(op, p, ENOTDIR, "not a directory")
	}
	return res, nil
}
