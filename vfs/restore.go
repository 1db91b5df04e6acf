package vfs

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nookdev/nook/internal/sqldb"
)

// treeEntry is one name of a tree, a checkpoint's or the live one.
type treeEntry struct {
	path   string
	inode  int64
	born   int64 // the version (checkpoint trees); 0 for the live tree
	typ    Type
	mode   uint32
	size   int64
	nlink  int64
	atime  int64
	mtime  int64
	ctime  int64
	rev    int64 // live tree only
	target string
	blobs  []int64
	loaded bool // blobs is known
}

// tree is a set of names by path, and the paths in byte order.
type tree struct {
	byPath map[string]*treeEntry
	paths  []string
	ck     *ckRow // nil for the live tree
}

// pathExpr builds a child's path in the recursive queries below.
const pathExpr = `CASE WHEN t.path = '/' THEN '/' || d.name ELSE t.path || '/' || d.name END`

// within reports whether p is under (or is) the subtree root.
func inSubtree(p, under string) bool { return under == "/" || p == under || within(p, under) }

// snapTree loads checkpoint ck's names at or under under.
func snapTree(c *sqldb.Conn, ck *ckRow, under string) (*tree, error) {
	vis := func(a string) string {
		return a + `.born <= ?1 AND (` + a + `.died IS NULL OR ` + a + `.died > ?1)`
	}
	s, err := c.Query(`WITH RECURSIVE t(inode, path) AS (
			SELECT 1, '/' UNION ALL
			SELECT d.inode, `+pathExpr+` FROM vfs_snap_dirents d JOIN t ON d.parent = t.inode WHERE `+vis("d")+`)
		SELECT t.path, n.inode, n.born, n.type, n.mode, n.size, n.nlink, n.atime, n.mtime, n.ctime, coalesce(n.target, ''), n.chunks
		FROM t JOIN vfs_snap_nodes n ON n.inode = t.inode AND `+vis("n"), ck.ID)
	if err != nil {
		return nil, err
	}
	tr := &tree{byPath: map[string]*treeEntry{}, ck: ck}
	for s.Step() {
		p := s.ColumnText(0)
		if !inSubtree(p, under) {
			continue
		}
		e := &treeEntry{path: p, inode: s.ColumnInt64(1), born: s.ColumnInt64(2), typ: Type(s.ColumnInt64(3)),
			mode: uint32(s.ColumnInt64(4)), size: s.ColumnInt64(5), nlink: s.ColumnInt64(6), atime: s.ColumnInt64(7),
			mtime: s.ColumnInt64(8), ctime: s.ColumnInt64(9), target: s.ColumnText(10),
			blobs: unpackBlobs(s.ColumnRawBlob(11)), loaded: true}
		tr.byPath[p] = e
		tr.paths = append(tr.paths, p)
	}
	if err := sqldb.Done(s, nil); err != nil {
		return nil, err
	}
	slices.Sort(tr.paths)
	return tr, nil
}

// liveTree loads the current names at or under under. Chunk lists are
// loaded on demand (blobsOf).
func liveTree(c *sqldb.Conn, under string) (*tree, error) {
	s, err := c.Query(`WITH RECURSIVE t(inode, path) AS (
			SELECT 1, '/' UNION ALL
			SELECT d.inode, ` + pathExpr + ` FROM vfs_dirents d JOIN t ON d.parent = t.inode)
		SELECT t.path, n.inode, n.type, n.mode, n.size, n.nlink, n.atime, n.mtime, n.ctime, n.rev, coalesce(n.target, '')
		FROM t JOIN vfs_nodes n ON n.inode = t.inode`)
	if err != nil {
		return nil, err
	}
	tr := &tree{byPath: map[string]*treeEntry{}}
	for s.Step() {
		p := s.ColumnText(0)
		if !inSubtree(p, under) {
			continue
		}
		e := &treeEntry{path: p, inode: s.ColumnInt64(1), typ: Type(s.ColumnInt64(2)), mode: uint32(s.ColumnInt64(3)),
			size: s.ColumnInt64(4), nlink: s.ColumnInt64(5), atime: s.ColumnInt64(6), mtime: s.ColumnInt64(7),
			ctime: s.ColumnInt64(8), rev: s.ColumnInt64(9), target: s.ColumnText(10)}
		e.loaded = e.typ != TypeFile
		tr.byPath[p] = e
		tr.paths = append(tr.paths, p)
	}
	if err := sqldb.Done(s, nil); err != nil {
		return nil, err
	}
	slices.Sort(tr.paths)
	return tr, nil
}

func blobsOf(c *sqldb.Conn, e *treeEntry) ([]int64, error) {
	if !e.loaded {
		b, err := fileBlobs(c, e.inode)
		if err != nil {
			return nil, err
		}
		e.blobs, e.loaded = b, true
	}
	return e.blobs, nil
}

// difference says how two versions of a name differ.
type difference struct {
	kind, content, mode, links bool
	times                      bool // atime or mtime
	ctime                      bool
}

func (d difference) any() bool { return d.kind || d.content || d.mode || d.times || d.ctime || d.links }

// compare says how b (at the same path) differs from a. a and b come from
// trees ta and tb; a name whose inode is unchanged since a checkpoint is
// known equal without reading it.
func compare(c *sqldb.Conn, ta, tb *tree, a, b *treeEntry) (difference, error) {
	if a.inode == b.inode {
		switch {
		case ta.ck != nil && tb.ck != nil && a.born == b.born:
			return difference{}, nil
		case ta.ck != nil && tb.ck == nil && b.rev <= ta.ck.Rev:
			return difference{}, nil
		case tb.ck != nil && ta.ck == nil && a.rev <= tb.ck.Rev:
			return difference{}, nil
		}
	}
	var d difference
	if a.typ != b.typ {
		d.kind = true
		return d, nil
	}
	d.mode = a.mode != b.mode
	d.times = a.atime != b.atime || a.mtime != b.mtime
	d.ctime = a.ctime != b.ctime
	switch a.typ {
	case TypeSymlink:
		d.content = a.target != b.target
	case TypeFile:
		d.links = a.nlink != b.nlink
		ab, err := blobsOf(c, a)
		if err != nil {
			return d, err
		}
		bb, err := blobsOf(c, b)
		if err != nil {
			return d, err
		}
		d.content = a.size != b.size || !slices.Equal(ab, bb)
	}
	return d, nil
}

// RestoreStats says what a restore changed.
type RestoreStats struct {
	Rev     int64 `json:"rev"`     // the revision the restore committed as (0: nothing to change)
	Removed int64 `json:"removed"` // names removed (a removed directory counts once)
	Created int64 `json:"created"` // names created
	Updated int64 `json:"updated"` // names whose content, mode or times were put back
	// Compared is how many names the restore looked at: those that can
	// differ (found from the change feed since the checkpoint) when it
	// could tell, else every name of both trees.
	Compared int64 `json:"compared"`
}

// Restore puts the tree at or under subtree ("" or "/" for all of it) back
// as checkpoint name recorded it: content, modes, times, symlinks and hard
// links, in one transaction committed as one revision, whose change-feed
// entries say what changed (remove, create, write, link, chmod, chtimes).
// Names equal to the checkpoint's are not touched. A subtree the
// checkpoint did not have is removed. A missing checkpoint is ENOENT.
//
// Only the names that can differ are compared, found from the change
// feed since the checkpoint's revision, so a restore costs what changed
// since, not the size of the tree; when the feed cannot tell (it was
// pruned past the checkpoint, or a change is not reached through it) the
// whole trees are compared.
//
// The runtime refuses a restore while a run is in flight (EBUSY); a
// caller of this method directly owns that check.
func (f *FS) Restore(ctx context.Context, name, subtree string) (*RestoreStats, error) {
	const op = "restore"
	under := "/"
	if subtree != "" {
		p, err := f.clean(op, subtree)
		if err != nil {
			return nil, err
		}
		under = p
	}
	st := &RestoreStats{}
	err := f.update(ctx, op, name, func(t *wtx) error {
		ck, err := findCheckpoint(t.c, name)
		if err != nil {
			return err
		}
		if ck == nil {
			return perr(op, name, ENOENT, "no such checkpoint")
		}
		target, live, ok, err := regionTrees(t.c, ck, under)
		if err != nil {
			return err
		}
		if !ok {
			if target, err = snapTree(t.c, ck, under); err != nil {
				return err
			}
			if live, err = liveTree(t.c, under); err != nil {
				return err
			}
		}
		if err := t.restoreTree(op, target, live, nil, st); err != nil {
			return err
		}
		if t.dirty || len(t.changes) > 0 {
			st.Rev = t.rev
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// restoreTree makes the names of the live tree live equal those of
// target: both hold the same part of their trees, a subtree or the region
// that can differ, and a name one lacks is absent from its tree. With
// only set, just those paths (and what is below them) are compared and put
// back.
func (t *wtx) restoreTree(op string, target, live *tree, only func(p string) bool, st *RestoreStats) error {
	c, f := t.c, t.f
	st.Compared = int64(len(live.paths))
	for _, p := range target.paths {
		if live.byPath[p] == nil {
			st.Compared++
		}
	}
	keep := func(p string) bool { return only == nil || only(p) }
	diffs := map[string]difference{}
	// 1. Remove what the target lacks, what changed kind, symlinks whose
	// target changed and files whose links differ (they are recreated).
	removed := map[string]bool{}
	underRemoved := func(p string) bool {
		for q := p; q != "/"; q, _ = split(q) {
			if removed[q] {
				return true
			}
		}
		return false
	}
	for _, p := range live.paths {
		if !keep(p) || p == "/" || underRemoved(p) {
			continue
		}
		cur := live.byPath[p]
		want := target.byPath[p]
		replace := want == nil
		if want != nil {
			d, err := compare(c, target, live, want, cur)
			if err != nil {
				return err
			}
			diffs[p] = d
			replace = d.kind || d.links || (cur.typ == TypeSymlink && d.content) || (cur.typ == TypeFile && d.content && cur.nlink > 1)
		}
		if !replace {
			continue
		}
		if err := f.removeInTx(t, p, &RemoveOptions{Recursive: true}); err != nil {
			return err
		}
		removed[p] = true
		st.Removed++
		delete(diffs, p)
	}
	// 2. Create and update in path order, parents first.
	made := map[int64]int64{} // checkpoint inode → live inode, for hard links
	for _, p := range target.paths {
		if !keep(p) {
			continue
		}
		want := target.byPath[p]
		if err := f.checkWritable(op, p); err != nil {
			return err
		}
		cur := live.byPath[p]
		if underRemoved(p) {
			cur = nil
		}
		if cur != nil {
			d, ok := diffs[p]
			if !ok {
				var err error
				if d, err = compare(c, target, live, want, cur); err != nil {
					return err
				}
			}
			if want.typ == TypeDir { // its mode and times are put back below
				if d.mode {
					t.record(OpChmod, p, "", TypeDir)
				} else if d.times {
					t.record(OpChtimes, p, "", TypeDir)
				}
				continue
			}
			if !d.any() {
				continue
			}
			if err := t.putBack(cur.inode, want, cur, d); err != nil {
				return err
			}
			st.Updated++
			continue
		}
		res, err := f.resolve(c, p, false)
		if err != nil {
			return resolveErr(op, p, err, "parent directory missing")
		}
		if res.n != nil {
			return perr(op, p, EEXIST, "path exists") // cannot happen: removed above
		}
		if in, ok := made[want.inode]; ok && want.typ != TypeDir {
			if err := c.Exec(`INSERT INTO vfs_dirents(parent, name, inode) VALUES (?, ?, ?)`, res.parent, res.name, in); err != nil {
				return err
			}
			if err := c.Exec(`UPDATE vfs_nodes SET nlink = nlink + 1 WHERE inode = ?`, in); err != nil {
				return err
			}
			t.dNodes++
			t.record(OpLink, p, "", want.typ)
			if err := t.touchDir(res.parent); err != nil {
				return err
			}
			st.Created++
			continue
		}
		in, err := t.createNode(res, want.typ, want.mode, want.size, want.target)
		if err != nil {
			return err
		}
		made[want.inode] = in
		st.Created++
		if want.typ == TypeDir {
			continue
		}
		if want.typ == TypeFile {
			if err := t.linkBlobs(in, want.blobs); err != nil {
				return err
			}
		}
		if err := t.setAttrs(in, want); err != nil {
			return err
		}
	}
	// 3. Directories' modes and times last: creating and removing their
	// entries above changed them.
	for _, p := range target.paths {
		d := target.byPath[p]
		if d.typ != TypeDir || !t.dirty && len(t.changes) == 0 || !keep(p) {
			continue
		}
		res, err := f.resolve(c, p, false)
		if err != nil || res.n == nil {
			return resolveErr(op, p, err, "restored directory missing")
		}
		n := res.n
		if n.mode == d.mode && n.atime == d.atime && n.mtime == d.mtime && n.ctime == d.ctime {
			continue
		}
		if err := t.setAttrs(n.inode, d); err != nil {
			return err
		}
	}
	// Hard links' counts: the checkpoint's (which restored names gave).
	for _, in := range made {
		if err := c.Exec(`UPDATE vfs_nodes SET nlink = (SELECT count(*) FROM vfs_dirents WHERE inode = ?1) WHERE inode = ?1 AND type != 2`, in); err != nil {
			return err
		}
	}
	return nil
}

// setAttrs gives a node the mode and times of a checkpoint's version.
func (t *wtx) setAttrs(inode int64, want *treeEntry) error {
	t.dirty = true
	return t.c.Exec(`UPDATE vfs_nodes SET mode = ?, atime = ?, mtime = ?, ctime = ?, rev = ? WHERE inode = ?`,
		want.mode, want.atime, want.mtime, want.ctime, t.rev, inode)
}

// putBack updates a live file or symlink in place to want.
func (t *wtx) putBack(inode int64, want, cur *treeEntry, d difference) error {
	switch {
	case d.content && want.typ == TypeFile:
		if err := t.dropChunks(inode, 0); err != nil {
			return err
		}
		if err := t.linkBlobs(inode, want.blobs); err != nil {
			return err
		}
		t.dBytes += want.size - cur.size
		if err := t.c.Exec(`UPDATE vfs_nodes SET size = ? WHERE inode = ?`, want.size, inode); err != nil {
			return err
		}
		t.record(OpWrite, want.path, "", TypeFile)
	case d.mode:
		t.record(OpChmod, want.path, "", want.typ)
	default:
		t.record(OpChtimes, want.path, "", want.typ)
	}
	return t.setAttrs(inode, want)
}

// linkBlobs gives an empty file inode the chunks blobs (already stored),
// counting a reference for each and rebuilding grep's filters.
func (t *wtx) linkBlobs(inode int64, blobs []int64) error {
	for i, b := range blobs {
		s, err := t.c.Query(`SELECT b.size, d.data FROM vfs_blobs b JOIN vfs_blob_data d ON d.id = b.id WHERE b.id = ?`, b)
		if err != nil {
			return err
		}
		var ref chunkRef
		found := s.Step()
		if found {
			ref = chunkRef{blob: b, size: s.ColumnInt64(0), filter: buildFilter(s.ColumnRawBlob(1))}
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		if !found {
			return perr("restore", "", EIO, fmt.Sprintf("checkpoint content chunk %d is missing", b))
		}
		if err := t.refBlob(b, 1); err != nil {
			return err
		}
		if err := t.insertChunk(inode, int64(i), ref); err != nil {
			return err
		}
	}
	return nil
}

// resolveTree loads the tree a reference names: "" for the live tree, a
// checkpoint's name, or "@N" for the checkpoint that records revision N.
func resolveTree(c *sqldb.Conn, op, ref, under string) (*tree, error) {
	if ref == "" {
		return liveTree(c, under)
	}
	ck, err := findCheckpoint(c, ref)
	if err != nil {
		return nil, err
	}
	if ck == nil && strings.HasPrefix(ref, "@") {
		rev, perr2 := strconv.ParseInt(ref[1:], 10, 64)
		if perr2 != nil {
			return nil, perr(op, ref, EINVAL, "a revision reference is @ and a number")
		}
		s, err := c.Query(`SELECT `+ckCols+` FROM vfs_checkpoints WHERE rev = ? ORDER BY id DESC LIMIT 1`, rev)
		if err != nil {
			return nil, err
		}
		if s.Step() {
			ck = scanCheckpoint(s)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return nil, err
		}
		if ck == nil {
			return nil, perr(op, ref, ENOENT, fmt.Sprintf("no checkpoint records revision %d (only checkpointed revisions can be compared)", rev))
		}
	}
	if ck == nil {
		return nil, perr(op, ref, ENOENT, "no such checkpoint")
	}
	return snapTree(c, ck, under)
}
