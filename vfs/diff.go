package vfs

import (
	"bytes"
	"context"
	"slices"
	"unicode/utf8"

	"github.com/nookdev/nook/internal/linediff"
	"github.com/nookdev/nook/internal/sqldb"
)

// DiffOp is how a name differs between two trees.
type DiffOp string

// Diff operations.
const (
	DiffAdded    DiffOp = "added"
	DiffModified DiffOp = "modified"
	DiffDeleted  DiffOp = "deleted"
	DiffRenamed  DiffOp = "renamed" // the same node under a new name (OldPath)
)

// DiffEntry is one name that differs.
type DiffEntry struct {
	Op      DiffOp `json:"op"`
	Path    string `json:"path"`
	OldPath string `json:"oldPath,omitempty"` // for renames
	Kind    Type   `json:"kind"`              // the node's kind (in the newer tree, unless deleted)
	// What differs, for modified and renamed names.
	Content bool `json:"content,omitempty"` // bytes, a symlink's target, or the kind of node
	Mode    bool `json:"mode,omitempty"`
	Times   bool `json:"times,omitempty"` // modification or access time
	// Patch is a unified diff of the text, with DiffOptions.Text, for
	// files whose content differs and both sides are UTF-8 text no
	// larger than MaxDiffTextSize.
	Patch string `json:"patch,omitempty"`
}

// MaxDiffTextSize is the largest file Diff renders a patch for.
const MaxDiffTextSize = 1 << 20

// DiffOptions configure Diff.
type DiffOptions struct {
	// Path limits the comparison to the tree at or under it.
	Path string
	// Text adds a unified diff of each changed text file.
	Text bool
}

// Diff compares two trees: a and b each name a checkpoint, "@N" the
// checkpoint that records revision N, or "" the live tree. Entries come in
// path order. A directory is listed when it was added, deleted or renamed,
// or its mode changed (its times follow its entries, so they are not a
// difference of their own). A node whose name changed is a rename; one
// under a renamed directory is listed only if it differs otherwise.
func (f *FS) Diff(ctx context.Context, a, b string, opts *DiffOptions) ([]DiffEntry, error) {
	const op = "diff"
	if opts == nil {
		opts = &DiffOptions{}
	}
	under := "/"
	if opts.Path != "" {
		p, err := f.clean(op, opts.Path)
		if err != nil {
			return nil, err
		}
		under = p
	}
	var out []DiffEntry
	err := f.view(ctx, op, "", func(c *sqldb.Conn) error {
		ta, err := resolveTree(c, op, a, under)
		if err != nil {
			return err
		}
		tb, err := resolveTree(c, op, b, under)
		if err != nil {
			return err
		}
		out, err = diffTrees(c, ta, tb, opts.Text)
		return err
	})
	return out, err
}

// diffTrees lists how tb differs from ta.
func diffTrees(c *sqldb.Conn, ta, tb *tree, text bool) ([]DiffEntry, error) {
	var out []DiffEntry
	var deleted, added []*treeEntry
	for _, p := range ta.paths {
		ea := ta.byPath[p]
		eb := tb.byPath[p]
		if eb == nil {
			deleted = append(deleted, ea)
			continue
		}
		d, err := compare(c, ta, tb, ea, eb)
		if err != nil {
			return nil, err
		}
		if eb.typ == TypeDir && ea.typ == TypeDir {
			d.times = false
		}
		if !d.kind && !d.content && !d.mode && !d.times {
			continue
		}
		e := DiffEntry{Op: DiffModified, Path: p, Kind: eb.typ, Content: d.content || d.kind, Mode: d.mode, Times: d.times}
		if text && d.content && ea.typ == TypeFile && eb.typ == TypeFile {
			if e.Patch, err = patchOf(c, p, ea, eb); err != nil {
				return nil, err
			}
		}
		out = append(out, e)
	}
	for _, p := range tb.paths {
		if ta.byPath[p] == nil {
			added = append(added, tb.byPath[p])
		}
	}
	// Pair a deleted and an added name of one node (same inode and kind)
	// as a rename.
	byInode := map[int64]*treeEntry{}
	for _, e := range deleted {
		if _, dup := byInode[e.inode]; !dup {
			byInode[e.inode] = e
		}
	}
	renamedFrom := map[string]string{} // new path → old path, directories
	paired := map[*treeEntry]bool{}
	for _, e := range added {
		old := byInode[e.inode]
		if old == nil || old.typ != e.typ || paired[old] {
			out = append(out, DiffEntry{Op: DiffAdded, Path: e.path, Kind: e.typ})
			continue
		}
		paired[old] = true
		var d difference
		var err error
		d.mode = old.mode != e.mode
		if e.typ == TypeFile || e.typ == TypeSymlink {
			if d, err = compare(c, ta, tb, old, e); err != nil {
				return nil, err
			}
		}
		if e.typ == TypeDir {
			renamedFrom[e.path] = old.path
			d.times = false
		}
		// Under a renamed directory, a node that only moved with it is
		// not listed.
		if dir, _ := split(e.path); !d.content && !d.mode && !d.times {
			if od, ok := renamedFrom[dir]; ok {
				if odir, _ := split(old.path); odir == od && Base(old.path) == Base(e.path) {
					renamedFrom[e.path] = old.path
					continue
				}
			}
		}
		de := DiffEntry{Op: DiffRenamed, Path: e.path, OldPath: old.path, Kind: e.typ, Content: d.content, Mode: d.mode, Times: d.times}
		if text && d.content && e.typ == TypeFile {
			if de.Patch, err = patchOf(c, e.path, old, e); err != nil {
				return nil, err
			}
		}
		out = append(out, de)
	}
	for _, e := range deleted {
		if paired[e] {
			continue
		}
		// A deleted directory's contents are listed too (each a name).
		out = append(out, DiffEntry{Op: DiffDeleted, Path: e.path, Kind: e.typ})
	}
	slices.SortStableFunc(out, func(x, y DiffEntry) int {
		if x.Path < y.Path {
			return -1
		}
		if x.Path > y.Path {
			return 1
		}
		return 0
	})
	return out, nil
}

// patchOf renders a unified diff of two versions of a file when both are
// small UTF-8 text.
func patchOf(c *sqldb.Conn, p string, a, b *treeEntry) (string, error) {
	if a.size > MaxDiffTextSize || b.size > MaxDiffTextSize {
		return "", nil
	}
	da, err := blobBytes(c, a)
	if err != nil {
		return "", err
	}
	db, err := blobBytes(c, b)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(da) || !utf8.Valid(db) || bytes.IndexByte(da, 0) >= 0 || bytes.IndexByte(db, 0) >= 0 {
		return "", nil
	}
	from, to := "a"+a.path, "b"+b.path
	return linediff.Unified(from, to, da, db, 3), nil
}

// blobBytes reads a file version's content from its chunks.
func blobBytes(c *sqldb.Conn, e *treeEntry) ([]byte, error) {
	blobs, err := blobsOf(c, e)
	if err != nil {
		return nil, err
	}
	var out []byte
	for _, b := range blobs {
		s, err := c.Query(`SELECT data FROM vfs_blob_data WHERE id = ?`, b)
		if err != nil {
			return nil, err
		}
		if s.Step() {
			out = append(out, s.ColumnRawBlob(0)...)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}
