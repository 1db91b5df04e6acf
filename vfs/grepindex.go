package vfs

import (
	"slices"
	"strings"

	"github.com/nookdev/nook/internal/sqldb"
)

// grepMaxFromIndex is the number of candidate files beyond which grep walks
// the tree rather than find each candidate's names (a walk lists a
// directory's entries in one query; a name lookup costs one per level).
const grepMaxFromIndex = 1024

// fromIndex searches, when it can, only the files the trigram index left
// as candidates, without walking the tree: their names come from
// vfs_dirents_inode and are put in the walk's order (depth first, names in
// byte order), so results and paging are the walk's. Files of more than
// one chunk, which the index does not judge, are candidates too. It
// declines (handled false) when the index is not in use, when mounts
// could hold files the database does not, when MaxFileSize would list
// small files as skipped, or when the candidates are too many.
func (g *grepper) fromIndex(res resolution) (handled bool, err error) {
	if !g.indexed || len(*g.f.mounts.Load()) > 0 || g.maxSize < ChunkSize || res.n == nil {
		return false, nil
	}
	c := g.c
	inodes := make([]int64, 0, len(g.cands))
	for in := range g.cands {
		inodes = append(inodes, in)
	}
	s, err := c.Query(`SELECT inode FROM vfs_nodes WHERE type = 1 AND size > 262144`)
	if err != nil {
		return true, err
	}
	for s.Step() {
		if in := s.ColumnInt64(0); !g.cands[in] {
			inodes = append(inodes, in)
		}
	}
	if err := sqldb.Done(s, nil); err != nil {
		return true, err
	}
	if len(inodes) > grepMaxFromIndex {
		return false, nil
	}
	dirs := map[int64]string{rootInode: "/"}
	var dirPath func(inode int64) (string, bool, error)
	dirPath = func(inode int64) (string, bool, error) {
		if p, ok := dirs[inode]; ok {
			return p, p != "", nil
		}
		parent, name, ok, err := nameOf(c, inode)
		if err != nil || !ok {
			return "", false, err
		}
		pp, ok, err := dirPath(parent)
		if err != nil || !ok {
			return "", false, err
		}
		p := join(pp, name)
		dirs[inode] = p
		return p, true, nil
	}
	type found struct {
		e   Entry
		rel []string
	}
	var files []found
	for _, in := range inodes {
		s, err := c.Query(`SELECT type, size FROM vfs_nodes WHERE inode = ?`, in)
		if err != nil {
			return true, err
		}
		var typ Type
		var size int64
		if s.Step() {
			typ, size = Type(s.ColumnInt(0)), s.ColumnInt64(1)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return true, err
		}
		if typ != TypeFile {
			continue
		}
		s, err = c.Query(`SELECT parent, name FROM vfs_dirents WHERE inode = ?`, in)
		if err != nil {
			return true, err
		}
		type link struct {
			parent int64
			name   string
		}
		var links []link
		for s.Step() {
			links = append(links, link{s.ColumnInt64(0), s.ColumnText(1)})
		}
		if err := sqldb.Done(s, nil); err != nil {
			return true, err
		}
		for _, l := range links {
			dir, ok, err := dirPath(l.parent)
			if err != nil {
				return true, err
			}
			p := join(dir, l.name)
			if !ok || p == res.path || !within(p, res.path) {
				continue
			}
			segs := strings.Split(rel(p, res.path), "/")
			if g.excludedDir(segs) {
				continue
			}
			files = append(files, found{e: Entry{Path: p, Name: l.name, Kind: TypeFile, Size: size, Inode: in}, rel: segs})
		}
	}
	slices.SortFunc(files, func(a, b found) int { return slices.Compare(a.rel, b.rel) })
	for i := range files {
		_, stop, err := g.visit(&files[i].e, strings.Join(files[i].rel, "/"))
		if err != nil || stop {
			return true, err
		}
	}
	if !g.stopped {
		_, err = g.flush()
	}
	return true, err
}

// excludedDir reports whether a directory on the way to a file (segs, its
// path relative to the searched directory) is excluded, which would have
// kept a walk out of it.
func (g *grepper) excludedDir(segs []string) bool {
	for i := 1; i < len(segs); i++ {
		if g.excl.Excluded(strings.Join(segs[:i], "/"), true) {
			return true
		}
	}
	return false
}

// nameOf returns a name of inode and its parent directory.
func nameOf(c *sqldb.Conn, inode int64) (parent int64, name string, ok bool, err error) {
	s, err := c.Query(`SELECT parent, name FROM vfs_dirents WHERE inode = ? LIMIT 1`, inode)
	if err != nil {
		return 0, "", false, err
	}
	if ok = s.Step(); ok {
		parent, name = s.ColumnInt64(0), s.ColumnText(1)
	}
	return parent, name, ok, sqldb.Done(s, nil)
}
