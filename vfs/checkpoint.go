package vfs

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nookdev/nook/internal/sqldb"
)

// MaxCheckpointName is the longest checkpoint name, in bytes.
const MaxCheckpointName = 200

// Checkpoint describes a recorded tree.
type Checkpoint struct {
	ID      int64     `json:"id"`      // increases with every checkpoint taken
	Name    string    `json:"name"`    // unique within the workspace
	Rev     int64     `json:"rev"`     // the revision whose tree it records
	Time    time.Time `json:"time"`    // when it was taken (the workspace's clock)
	Entries int64     `json:"entries"` // names in the tree then, the root included
	Bytes   int64     `json:"bytes"`   // logical bytes of its files
}

// CheckpointStats says what taking a checkpoint cost.
type CheckpointStats struct {
	// Nodes and Dirents are the versions written: what changed since the
	// previous checkpoint (everything, for the first).
	Nodes, Dirents int64
	// Full reports that the whole tree was recorded (the first checkpoint,
	// or one whose predecessor was deleted).
	Full bool
}

// checkName validates a checkpoint name: 1 to MaxCheckpointName bytes of
// UTF-8 without control characters.
func checkpointName(op, name string) error {
	if name == "" {
		return perr(op, "", EINVAL, "checkpoint name is empty")
	}
	if len(name) > MaxCheckpointName {
		return perr(op, name, ENAMETOOLONG, fmt.Sprintf("checkpoint name exceeds MaxCheckpointName (%d bytes)", MaxCheckpointName))
	}
	if !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return perr(op, name, EINVAL, "checkpoint name must be UTF-8 without control characters")
	}
	return nil
}

// Checkpoint records the whole tree as it is now (its metadata and its
// content references, at the current revision) under name, which must not
// be taken (EEXIST). It takes no revision and changes no file. Only what
// changed since the previous checkpoint is written: nodes whose revision is
// newer and the entries of directories that changed, so frequent
// checkpoints cost O(changed entries). Content is shared by hash: a
// checkpoint holds a reference on each chunk it records, so GC keeps it.
func (f *FS) Checkpoint(ctx context.Context, name string) (*Checkpoint, error) {
	ck, _, err := f.CheckpointStats(ctx, name)
	return ck, err
}

// CheckpointStats is Checkpoint, also reporting what it wrote.
func (f *FS) CheckpointStats(ctx context.Context, name string) (*Checkpoint, *CheckpointStats, error) {
	const op = "checkpoint"
	if err := checkpointName(op, name); err != nil {
		return nil, nil, err
	}
	var ck *Checkpoint
	st := &CheckpointStats{}
	err := f.update(ctx, op, "", func(t *wtx) error {
		var err error
		ck, err = t.checkpoint(op, name, st)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return ck, st, nil
}

// checkpoint takes a checkpoint inside t (which stays clean: no revision).
func (t *wtx) checkpoint(op, name string, st *CheckpointStats) (*Checkpoint, error) {
	c := t.c
	if old, err := findCheckpoint(c, name); err != nil {
		return nil, err
	} else if old != nil {
		return nil, perr(op, name, EEXIST, "checkpoint exists")
	}
	base, err := lastCheckpoint(c)
	if err != nil {
		return nil, err
	}
	rev := t.rev - 1 // the committed revision (t.rev is the one a mutation would take)
	if err := c.Exec(`INSERT INTO vfs_checkpoints(name, rev, time, entries, bytes) VALUES (?, ?, ?, ?, ?)`,
		name, rev, t.now, t.nodes, t.bytes); err != nil {
		return nil, err
	}
	id := c.LastInsertRowID()
	ck := &Checkpoint{ID: id, Name: name, Rev: rev, Time: nsTime(t.now), Entries: t.nodes, Bytes: t.bytes}
	if base == nil {
		st.Full = true
		return ck, t.snapAll(id, st)
	}
	if base.Rev == rev {
		return ck, nil // nothing changed: the open versions hold
	}
	// Nodes changed since the base (the index on rev makes this a range).
	s, err := c.Query(`SELECT `+nodeCols+` FROM vfs_nodes n WHERE n.rev > ?`, base.Rev)
	if err != nil {
		return nil, err
	}
	var changed []*node
	for s.Step() {
		changed = append(changed, scanNode(s, 0))
	}
	if err := sqldb.Done(s, nil); err != nil {
		return nil, err
	}
	gone := map[int64]bool{} // inodes whose entries were closed
	for _, n := range changed {
		if n.nlink == 0 {
			continue // unlinked, still open: not in the tree (closed below)
		}
		if err := t.closeNode(n.inode, id); err != nil {
			return nil, err
		}
		if err := t.snapNode(n, id); err != nil {
			return nil, err
		}
		st.Nodes++
		if n.typ == TypeDir {
			if err := t.snapDirDiff(n.inode, id, st, gone); err != nil {
				return nil, err
			}
		} else if err := t.closeDirents(n.inode, id, gone); err != nil {
			return nil, err // a directory's inode number reused by a file
		}
	}
	// A name closed whose inode no longer exists in the tree: close its
	// version, and, for a directory removed with everything in it, its
	// entries and their nodes, recursively.
	var stack []int64
	for in := range gone {
		stack = append(stack, in)
	}
	for len(stack) > 0 {
		in := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n, err := getNode(c, in)
		if err != nil {
			return nil, err
		}
		if n != nil && n.nlink > 0 {
			continue // still in the tree under another name (changed ones are done above)
		}
		if err := t.closeNode(in, id); err != nil {
			return nil, err
		}
		kids := map[int64]bool{}
		if err := t.closeDirents(in, id, kids); err != nil {
			return nil, err
		}
		for k := range kids {
			stack = append(stack, k)
		}
	}
	return ck, nil
}

// snapAll records the whole tree as versions born at checkpoint id (there
// are no open versions: no checkpoint exists).
func (t *wtx) snapAll(id int64, st *CheckpointStats) error {
	c := t.c
	if err := c.Exec(`INSERT INTO vfs_snap_dirents(parent, name, born, inode) SELECT parent, name, ?, inode FROM vfs_dirents`, id); err != nil {
		return err
	}
	st.Dirents = c.Changes()
	s, err := c.Query(`SELECT ` + nodeCols + ` FROM vfs_nodes n WHERE n.nlink > 0`)
	if err != nil {
		return err
	}
	var all []*node
	for s.Step() {
		all = append(all, scanNode(s, 0))
	}
	if err := sqldb.Done(s, nil); err != nil {
		return err
	}
	for _, n := range all {
		if err := t.snapNode(n, id); err != nil {
			return err
		}
	}
	st.Nodes = int64(len(all))
	return nil
}

// snapNode writes a version of n born at checkpoint id, referencing its
// chunks.
func (t *wtx) snapNode(n *node, id int64) error {
	var chunks []byte
	if n.typ == TypeFile {
		blobs, err := fileBlobs(t.c, n.inode)
		if err != nil {
			return err
		}
		chunks = packBlobs(blobs)
		for _, b := range blobs {
			if err := t.refBlob(b, 1); err != nil {
				return err
			}
		}
	}
	var tgt any
	if n.typ == TypeSymlink {
		tgt = n.target
	}
	return t.c.Exec(`INSERT INTO vfs_snap_nodes(inode, born, type, mode, size, nlink, atime, mtime, ctime, target, chunks)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		n.inode, id, int64(n.typ), n.mode, n.size, n.nlink, n.atime, n.mtime, n.ctime, tgt, chunks)
}

// closeNode ends the open version of inode at checkpoint id. A version born
// at id itself (a name reused within one checkpoint) is dropped instead.
func (t *wtx) closeNode(inode, id int64) error {
	if err := t.dropVersions(`WHERE inode = ? AND born = ? AND died IS NULL`, inode, id); err != nil {
		return err
	}
	return t.c.Exec(`UPDATE vfs_snap_nodes SET died = ? WHERE inode = ? AND died IS NULL`, id, inode)
}

// snapDirDiff brings the open entry versions of directory dir in line with
// its current entries, noting in gone the inodes of names closed.
func (t *wtx) snapDirDiff(dir, id int64, st *CheckpointStats, gone map[int64]bool) error {
	c := t.c
	old := map[string]int64{}
	s, err := c.Query(`SELECT name, inode FROM vfs_snap_dirents WHERE parent = ? AND died IS NULL`, dir)
	if err != nil {
		return err
	}
	for s.Step() {
		old[s.ColumnText(0)] = s.ColumnInt64(1)
	}
	if err := sqldb.Done(s, nil); err != nil {
		return err
	}
	s, err = c.Query(`SELECT name, inode FROM vfs_dirents WHERE parent = ?`, dir)
	if err != nil {
		return err
	}
	type ent struct {
		name  string
		inode int64
	}
	var add []ent
	for s.Step() {
		name, in := s.ColumnText(0), s.ColumnInt64(1)
		if o, ok := old[name]; ok {
			delete(old, name)
			if o == in {
				continue
			}
			gone[o] = true
			if err := t.closeDirent(dir, name, id); err != nil {
				return sqldb.Done(s, err)
			}
		}
		add = append(add, ent{name, in})
	}
	if err := sqldb.Done(s, nil); err != nil {
		return err
	}
	for name, in := range old {
		gone[in] = true
		if err := t.closeDirent(dir, name, id); err != nil {
			return err
		}
	}
	for _, e := range add {
		if err := c.Exec(`INSERT INTO vfs_snap_dirents(parent, name, born, inode) VALUES (?, ?, ?, ?)`, dir, e.name, id, e.inode); err != nil {
			return err
		}
		st.Dirents++
	}
	return nil
}

func (t *wtx) closeDirent(dir int64, name string, id int64) error {
	return t.c.Exec(`UPDATE vfs_snap_dirents SET died = ? WHERE parent = ? AND name = ? AND died IS NULL`, id, dir, name)
}

// closeDirents ends the open entry versions of directory dir (one that is
// gone), noting their inodes in gone.
func (t *wtx) closeDirents(dir, id int64, gone map[int64]bool) error {
	s, err := t.c.Query(`SELECT inode FROM vfs_snap_dirents WHERE parent = ? AND died IS NULL`, dir)
	if err != nil {
		return err
	}
	n := 0
	for s.Step() {
		gone[s.ColumnInt64(0)] = true
		n++
	}
	if err := sqldb.Done(s, nil); err != nil || n == 0 {
		return err
	}
	if err := t.c.Exec(`DELETE FROM vfs_snap_dirents WHERE parent = ? AND born = ? AND died IS NULL`, dir, id); err != nil {
		return err
	}
	return t.c.Exec(`UPDATE vfs_snap_dirents SET died = ? WHERE parent = ? AND died IS NULL`, id, dir)
}

// fileBlobs lists a file's chunk blobs in order.
func fileBlobs(c *sqldb.Conn, inode int64) ([]int64, error) {
	s, err := c.Query(`SELECT blob FROM vfs_chunks WHERE inode = ? ORDER BY idx`, inode)
	if err != nil {
		return nil, err
	}
	var out []int64
	for s.Step() {
		out = append(out, s.ColumnInt64(0))
	}
	return out, sqldb.Done(s, nil)
}

func packBlobs(ids []int64) []byte {
	b := make([]byte, 0, 8*len(ids))
	for _, id := range ids {
		b = binary.BigEndian.AppendUint64(b, uint64(id))
	}
	return b
}

func unpackBlobs(b []byte) []int64 {
	out := make([]int64, 0, len(b)/8)
	for ; len(b) >= 8; b = b[8:] {
		out = append(out, int64(binary.BigEndian.Uint64(b)))
	}
	return out
}

// dropVersions deletes the node versions the WHERE clause selects,
// releasing the chunks they reference.
func (t *wtx) dropVersions(where string, args ...any) error {
	s, err := t.c.Query(`SELECT chunks FROM vfs_snap_nodes `+where, args...)
	if err != nil {
		return err
	}
	var blobs []int64
	for s.Step() {
		blobs = append(blobs, unpackBlobs(s.ColumnRawBlob(0))...)
	}
	if err := sqldb.Done(s, nil); err != nil {
		return err
	}
	for _, b := range blobs {
		if err := t.refBlob(b, -1); err != nil {
			return err
		}
	}
	return t.c.Exec(`DELETE FROM vfs_snap_nodes `+where, args...)
}

// pruneSnaps deletes closed versions no remaining checkpoint can see.
func (t *wtx) pruneSnaps() error {
	const dead = `WHERE died IS NOT NULL AND NOT EXISTS (SELECT 1 FROM vfs_checkpoints k
		WHERE k.id >= born AND k.id < died)`
	if err := t.dropVersions(dead); err != nil {
		return err
	}
	return t.c.Exec(`DELETE FROM vfs_snap_dirents ` + dead)
}

// ckRow is a vfs_checkpoints row.
type ckRow struct {
	Checkpoint
}

func scanCheckpoint(s interface {
	ColumnInt64(int) int64
	ColumnText(int) string
}) *ckRow {
	return &ckRow{Checkpoint: Checkpoint{ID: s.ColumnInt64(0), Name: s.ColumnText(1), Rev: s.ColumnInt64(2),
		Time: nsTime(s.ColumnInt64(3)), Entries: s.ColumnInt64(4), Bytes: s.ColumnInt64(5)}}
}

const ckCols = `id, name, rev, time, entries, bytes`

// findCheckpoint looks a checkpoint up by name; nil when there is none.
func findCheckpoint(c *sqldb.Conn, name string) (*ckRow, error) {
	s, err := c.Query(`SELECT `+ckCols+` FROM vfs_checkpoints WHERE name = ?`, name)
	if err != nil {
		return nil, err
	}
	var r *ckRow
	if s.Step() {
		r = scanCheckpoint(s)
	}
	if err := sqldb.Done(s, nil); err != nil {
		return nil, err
	}
	return r, nil
}

// lastCheckpoint is the newest checkpoint: the base the next one is taken
// against (its state is the open versions).
func lastCheckpoint(c *sqldb.Conn) (*ckRow, error) {
	s, err := c.Query(`SELECT ` + ckCols + ` FROM vfs_checkpoints ORDER BY id DESC LIMIT 1`)
	if err != nil {
		return nil, err
	}
	var r *ckRow
	if s.Step() {
		r = scanCheckpoint(s)
	}
	return r, sqldb.Done(s, nil)
}

// Checkpoints lists the checkpoints, oldest first.
func (f *FS) Checkpoints(ctx context.Context) ([]Checkpoint, error) {
	var out []Checkpoint
	err := f.view(ctx, "checkpoints", "", func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT ` + ckCols + ` FROM vfs_checkpoints ORDER BY id`)
		if err != nil {
			return err
		}
		for s.Step() {
			out = append(out, scanCheckpoint(s).Checkpoint)
		}
		return sqldb.Done(s, nil)
	})
	return out, err
}

// DeleteCheckpoint deletes the checkpoint name (ENOENT when there is none)
// and the versions only it needed, releasing their content for GC.
// Deleting the newest checkpoint undoes it: the versions it wrote go and
// those it closed open again, so the open versions are again the previous
// checkpoint's tree, the base of the next one.
func (f *FS) DeleteCheckpoint(ctx context.Context, name string) error {
	const op = "checkpoint-delete"
	return f.updateRaw(ctx, op, name, func(t *wtx) error {
		c := t.c
		ck, err := findCheckpoint(c, name)
		if err != nil {
			return err
		}
		if ck == nil {
			return perr(op, name, ENOENT, "no such checkpoint")
		}
		last, err := lastCheckpoint(c)
		if err != nil {
			return err
		}
		if err := c.Exec(`DELETE FROM vfs_checkpoints WHERE id = ?`, ck.ID); err != nil {
			return err
		}
		if last.ID == ck.ID {
			if err := t.dropVersions(`WHERE born = ?`, ck.ID); err != nil {
				return err
			}
			if err := c.Exec(`DELETE FROM vfs_snap_dirents WHERE born = ?`, ck.ID); err != nil {
				return err
			}
			if err := c.Exec(`UPDATE vfs_snap_nodes SET died = NULL WHERE died = ?`, ck.ID); err != nil {
				return err
			}
			if err := c.Exec(`UPDATE vfs_snap_dirents SET died = NULL WHERE died = ?`, ck.ID); err != nil {
				return err
			}
		}
		return t.pruneSnaps()
	})
}
