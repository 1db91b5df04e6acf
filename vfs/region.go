package vfs

import (
	"slices"

	"github.com/nookdev/nook/internal/sqldb"
)

// A restore compares only the part of the two trees that can differ: the
// region. It is found from the change feed since the checkpoint's
// revision (every path a change named, and its ancestors) and grown until
// it is closed:
//
//   - a directory whose inode is the same in both trees and that did not
//     change since the checkpoint (its revision is not newer) has the
//     same entries in both, so nothing below it differs unless the feed
//     names it;
//   - a directory that changed has all its entries, in either tree, put
//     in the region;
//   - a name whose inode differs between the trees (or that one lacks)
//     and is a directory in either has its whole subtree, in both, put in
//     the region;
//   - a file with more than one link has all its live names put in it.
//
// Then every live node newer than the checkpoint must have been reached
// (its inode is in the region's live tree): a node changed without a
// feed entry that leads to it (a directory renamed away and back, say)
// leaves one unreached, and the restore compares the whole trees instead.
// So the feed only has to find the changes, never to be complete.

// maxRegionLinked bounds the hard-linked files a region follows (finding
// a file's other names walks up from each through vfs_dirents_inode):
// beyond this many the whole trees are compared instead.
const maxRegionLinked = 16

// regionSide is one tree of a region being built: the checkpoint's
// (ck set) or the live one.
type regionSide struct {
	c     *sqldb.Conn
	ck    *ckRow
	known map[string]*treeEntry // resolved paths; nil: absent
}

// entrySQL selects a name's node: the live one, or the checkpoint's
// version (?1 is the checkpoint's id). Its columns are those scanEntry
// reads, after the name (or path) in column 0.
func (s *regionSide) entrySQL() (from, cols string) {
	if s.ck == nil {
		return `vfs_dirents d JOIN vfs_nodes n ON n.inode = d.inode`,
			`n.inode, 0, n.type, n.mode, n.size, n.nlink, n.atime, n.mtime, n.ctime, n.rev, coalesce(n.target, ''), NULL`
	}
	return `vfs_snap_dirents d JOIN vfs_snap_nodes n ON n.inode = d.inode AND ` + visible("n") + ` AND ` + visible("d"),
		`n.inode, n.born, n.type, n.mode, n.size, n.nlink, n.atime, n.mtime, n.ctime, 0, coalesce(n.target, ''), n.chunks`
}

// visible is the condition that a version (table alias a) is in the
// checkpoint whose id is ?1.
func visible(a string) string {
	return a + `.born <= ?1 AND (` + a + `.died IS NULL OR ` + a + `.died > ?1)`
}

// scanEntry reads the columns entrySQL selects, from column 1 on.
func (s *regionSide) scanEntry(st interface {
	ColumnInt64(int) int64
	ColumnText(int) string
	ColumnRawBlob(int) []byte
}, path string) *treeEntry {
	e := &treeEntry{path: path, inode: st.ColumnInt64(1), born: st.ColumnInt64(2), typ: Type(st.ColumnInt64(3)),
		mode: uint32(st.ColumnInt64(4)), size: st.ColumnInt64(5), nlink: st.ColumnInt64(6), atime: st.ColumnInt64(7),
		mtime: st.ColumnInt64(8), ctime: st.ColumnInt64(9), rev: st.ColumnInt64(10), target: st.ColumnText(11)}
	if s.ck != nil {
		e.blobs, e.loaded = unpackBlobs(st.ColumnRawBlob(12)), true
	} else {
		e.loaded = e.typ != TypeFile
	}
	return e
}

// ckArg is the checkpoint id argument ?1 (0 for the live side, where the
// queries do not use it).
func (s *regionSide) ckArg() int64 {
	if s.ck == nil {
		return 0
	}
	return s.ck.ID
}

// query runs sql and collects one entry per row, its path built by path
// from the row's column 0.
func (s *regionSide) query(sql string, path func(string) string, args ...any) ([]*treeEntry, error) {
	st, err := s.c.Query(sql, args...)
	if err != nil {
		return nil, err
	}
	var out []*treeEntry
	for st.Step() {
		out = append(out, s.scanEntry(st, path(st.ColumnText(0))))
	}
	return out, sqldb.Done(st, nil)
}

// root loads the root directory.
func (s *regionSide) root() (*treeEntry, error) {
	from := `vfs_nodes n`
	cols := `'/', n.inode, 0, n.type, n.mode, n.size, n.nlink, n.atime, n.mtime, n.ctime, n.rev, coalesce(n.target, ''), NULL`
	where := `n.inode = 1 AND ?1 = ?1`
	if s.ck != nil {
		from = `vfs_snap_nodes n`
		cols = `'/', n.inode, n.born, n.type, n.mode, n.size, n.nlink, n.atime, n.mtime, n.ctime, 0, coalesce(n.target, ''), n.chunks`
		where = `n.inode = 1 AND ` + visible("n")
	}
	es, err := s.query(`SELECT `+cols+` FROM `+from+` WHERE `+where, func(string) string { return "/" }, s.ckArg())
	if err != nil || len(es) == 0 {
		return nil, err
	}
	return es[0], nil
}

// resolve finds path in the tree (nil when it has no such name),
// remembering every path it resolved on the way.
func (s *regionSide) resolve(p string) (*treeEntry, error) {
	if e, ok := s.known[p]; ok {
		return e, nil
	}
	var e *treeEntry
	var err error
	if p == "/" {
		e, err = s.root()
	} else {
		dir, name := split(p)
		var parent *treeEntry
		if parent, err = s.resolve(dir); err == nil && parent != nil && parent.typ == TypeDir {
			from, cols := s.entrySQL()
			var es []*treeEntry
			es, err = s.query(`SELECT d.name, `+cols+` FROM `+from+` WHERE d.parent = ?2 AND d.name = ?3`,
				func(string) string { return p }, s.ckArg(), parent.inode, name)
			if len(es) > 0 {
				e = es[0]
			}
		}
	}
	if err != nil {
		return nil, err
	}
	s.known[p] = e
	return e, nil
}

// children lists the names in directory d.
func (s *regionSide) children(d *treeEntry) ([]*treeEntry, error) {
	from, cols := s.entrySQL()
	return s.query(`SELECT d.name, `+cols+` FROM `+from+` WHERE d.parent = ?2`,
		func(name string) string { return join(d.path, name) }, s.ckArg(), d.inode)
}

// subtree lists every name below directory d.
func (s *regionSide) subtree(d *treeEntry) ([]*treeEntry, error) {
	dirents, nodes, vis, cols := `vfs_dirents`, `vfs_nodes`, `?1 = ?1`,
		`n.inode, 0, n.type, n.mode, n.size, n.nlink, n.atime, n.mtime, n.ctime, n.rev, coalesce(n.target, ''), NULL`
	if s.ck != nil {
		dirents, nodes, vis, cols = `vfs_snap_dirents`, `vfs_snap_nodes`, visible("n"),
			`n.inode, n.born, n.type, n.mode, n.size, n.nlink, n.atime, n.mtime, n.ctime, 0, coalesce(n.target, ''), n.chunks`
	}
	dvis := `1`
	if s.ck != nil {
		dvis = visible("d")
	}
	return s.query(`WITH RECURSIVE t(inode, path) AS (
			SELECT ?2, ?3 UNION ALL
			SELECT d.inode, `+pathExpr+` FROM `+dirents+` d JOIN t ON d.parent = t.inode WHERE `+dvis+`)
		SELECT t.path, `+cols+` FROM t JOIN `+nodes+` n ON n.inode = t.inode AND `+vis+` WHERE t.inode != ?2`,
		func(p string) string { return p }, s.ckArg(), d.inode, d.path)
}

// livePaths lists the live names of inode (through vfs_dirents_inode), or
// nil when one of them cannot be followed up to the root.
func livePaths(c *sqldb.Conn, inode int64) ([]string, error) {
	type link struct {
		parent int64
		name   string
	}
	linksOf := func(in int64) ([]link, error) {
		s, err := c.Query(`SELECT parent, name FROM vfs_dirents WHERE inode = ?`, in)
		if err != nil {
			return nil, err
		}
		var out []link
		for s.Step() {
			out = append(out, link{s.ColumnInt64(0), s.ColumnText(1)})
		}
		return out, sqldb.Done(s, nil)
	}
	ls, err := linksOf(inode)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range ls {
		p := "/" + l.name
		for dir := l.parent; dir != 1; {
			up, err := linksOf(dir)
			if err != nil || len(up) != 1 {
				return nil, err // a directory has exactly one name
			}
			p = "/" + up[0].name + p
			dir = up[0].parent
		}
		out = append(out, p)
	}
	return out, nil
}

// regionTrees loads the region of checkpoint ck's tree and the live tree
// at or under under (see above). It returns ok false, and no trees, when
// the region cannot be trusted to hold every difference: the change feed
// since the checkpoint was pruned, a live change was not reached, or too
// many hard-linked files are involved.
func regionTrees(c *sqldb.Conn, ck *ckRow, under string) (target, live *tree, ok bool, err error) {
	var pruned int64
	s, err := c.Query(`SELECT pruned FROM vfs_state WHERE id = 1`)
	if err != nil {
		return nil, nil, false, err
	}
	if s.Step() {
		pruned = s.ColumnInt64(0)
	}
	if err := sqldb.Done(s, nil); err != nil || ck.Rev < pruned {
		return nil, nil, false, err
	}
	sides := [2]*regionSide{{c: c, ck: ck, known: map[string]*treeEntry{}}, {c: c, known: map[string]*treeEntry{}}}
	var todo []string
	queued := map[string]bool{}
	push := func(p string) {
		for !queued[p] {
			queued[p] = true
			todo = append(todo, p)
			if p == "/" {
				break
			}
			p, _ = split(p)
		}
	}
	s, err = c.Query(`SELECT DISTINCT path, coalesce(old_path, '') FROM vfs_changes WHERE rev > ?`, ck.Rev)
	if err != nil {
		return nil, nil, false, err
	}
	for s.Step() {
		for _, p := range []string{s.ColumnText(0), s.ColumnText(1)} {
			if p != "" {
				push(p)
			}
		}
	}
	if err := sqldb.Done(s, nil); err != nil {
		return nil, nil, false, err
	}
	push("/")
	covered := map[int64]bool{} // live inodes reached
	expanded := map[string]bool{}
	linked := map[int64]bool{} // hard-linked live inodes whose names are queued
	lost := false              // a hard-linked file's names could not all be found
	follow := func(e *treeEntry) error {
		if e == nil || e.typ != TypeFile || e.nlink < 2 || linked[e.inode] {
			return nil
		}
		linked[e.inode] = true
		if len(linked) > maxRegionLinked {
			return nil
		}
		ps, err := livePaths(c, e.inode)
		lost = lost || ps == nil
		for _, p := range ps {
			push(p)
		}
		return err
	}
	for len(todo) > 0 {
		p := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if expandedAbove(expanded, p) {
			continue
		}
		a, err := sides[0].resolve(p)
		if err != nil {
			return nil, nil, false, err
		}
		b, err := sides[1].resolve(p)
		if err != nil {
			return nil, nil, false, err
		}
		if b != nil {
			covered[b.inode] = true
			if err := follow(b); err != nil {
				return nil, nil, false, err
			}
		}
		if a != nil && b != nil && a.inode == b.inode && a.typ == TypeDir && b.typ == TypeDir {
			if b.rev <= ck.Rev {
				continue // unchanged: the same entries
			}
			for i, d := range []*treeEntry{a, b} {
				kids, err := sides[i].children(d)
				if err != nil {
					return nil, nil, false, err
				}
				for _, k := range kids {
					push(k.path)
				}
			}
			continue
		}
		if (a == nil || a.typ != TypeDir) && (b == nil || b.typ != TypeDir) {
			continue
		}
		// A directory in one tree that is not the same one in the other:
		// everything below it, in both.
		expanded[p] = true
		for i, d := range []*treeEntry{a, b} {
			if d == nil || d.typ != TypeDir {
				continue
			}
			es, err := sides[i].subtree(d)
			if err != nil {
				return nil, nil, false, err
			}
			for _, e := range es {
				sides[i].known[e.path] = e
				if i == 1 {
					covered[e.inode] = true
					if err := follow(e); err != nil {
						return nil, nil, false, err
					}
				}
			}
		}
	}
	if lost || len(linked) > maxRegionLinked {
		return nil, nil, false, nil
	}
	// Every live node changed since the checkpoint must have been reached.
	s, err = c.Query(`SELECT inode FROM vfs_nodes WHERE rev > ? AND nlink > 0`, ck.Rev)
	if err != nil {
		return nil, nil, false, err
	}
	for s.Step() {
		if !covered[s.ColumnInt64(0)] {
			return nil, nil, false, sqldb.Done(s, nil)
		}
	}
	if err := sqldb.Done(s, nil); err != nil {
		return nil, nil, false, err
	}
	target, live = sides[0].tree(under), sides[1].tree(under)
	target.ck = ck
	return target, live, true, nil
}

// expandedAbove reports whether p is below a path whose subtrees are
// loaded whole.
func expandedAbove(expanded map[string]bool, p string) bool {
	for q := p; q != "/"; {
		q, _ = split(q)
		if expanded[q] {
			return true
		}
	}
	return false
}

// tree is the names the side found at or under under.
func (s *regionSide) tree(under string) *tree {
	tr := &tree{byPath: map[string]*treeEntry{}}
	for p, e := range s.known {
		if e != nil && inSubtree(p, under) {
			tr.byPath[p] = e
			tr.paths = append(tr.paths, p)
		}
	}
	slices.Sort(tr.paths)
	return tr
}
