package git

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/nookdev/nook/internal/linediff"
	"github.com/nookdev/nook/vfs"
)

// diffContext is the lines of context of a diff, git's default.
const diffContext = 3

// maxDiffFileBytes bounds a file diffed line by line; bigger files are
// reported as changed without their lines.
const maxDiffFileBytes = 8 << 20

// entry is a file on one side of a diff.
type entry struct {
	hash plumbing.Hash
	mode filemode.FileMode
	read func() ([]byte, error)
}

// side is one side of a diff: files by path relative to the worktree.
type side map[string]entry

func (s side) names() []string {
	out := make([]string, 0, len(s))
	for n := range s {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func blobReader(r *repo, h plumbing.Hash) func() ([]byte, error) {
	return func() ([]byte, error) {
		b, err := r.BlobObject(h)
		if err != nil {
			return nil, err
		}
		if b.Size > maxDiffFileBytes {
			return nil, errTooBig
		}
		rd, err := b.Reader()
		if err != nil {
			return nil, err
		}
		defer rd.Close()
		return io.ReadAll(rd)
	}
}

var errTooBig = errors.New("too big to diff")

// commitSide lists a commit's files.
func commitSide(r *repo, cm *object.Commit) (side, error) {
	t, err := cm.Tree()
	if err != nil {
		return nil, err
	}
	s := side{}
	err = t.Files().ForEach(func(f *object.File) error {
		s[f.Name] = entry{hash: f.Hash, mode: f.Mode, read: blobReader(r, f.Hash)}
		return nil
	})
	return s, err
}

// indexSide lists the index's files.
func indexSide(r *repo) (side, error) {
	idx, err := r.Storer.Index()
	if err != nil {
		return nil, err
	}
	s := side{}
	for _, e := range idx.Entries {
		s[e.Name] = entry{hash: e.Hash, mode: e.Mode, read: blobReader(r, e.Hash)}
	}
	return s, nil
}

// worktreeSide lists the worktree's versions of the paths in tracked (the
// files git knows: untracked files are not diffed, as in git).
func (c *call) worktreeSide(r *repo, tracked ...side) (side, error) {
	s := side{}
	for _, t := range tracked {
		for name := range t {
			if _, ok := s[name]; ok {
				continue
			}
			p := path.Join(r.root, name)
			fi, err := c.g.fs.Lstat(c.ctx, p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, err
			}
			var data []byte
			mode := filemode.Regular
			switch {
			case fi.Kind == vfs.TypeSymlink:
				mode, data = filemode.Symlink, []byte(fi.Target)
			case fi.IsDir():
				continue
			default:
				if fi.Perm&0o111 != 0 {
					mode = filemode.Executable
				}
				if fi.Size() > maxDiffFileBytes {
					s[name] = entry{mode: mode, read: func() ([]byte, error) { return nil, errTooBig }}
					continue
				}
				if data, err = c.g.fs.ReadFile(c.ctx, p); err != nil {
					return nil, err
				}
			}
			d := data
			s[name] = entry{hash: plumbing.ComputeHash(plumbing.BlobObject, d), mode: mode,
				read: func() ([]byte, error) { return d, nil }}
		}
	}
	return s, nil
}

// writeWorktree writes a file of a side into the worktree.
func (c *call) writeWorktree(r *repo, name string, e entry, data []byte) error {
	p := path.Join(r.root, name)
	if _, err := c.g.fs.ResolveBeneath(c.ctx, c.g.opts.Root, p, false); err != nil {
		return err
	}
	if e.mode == filemode.Symlink {
		c.g.fs.Remove(c.ctx, p, nil)
		return c.g.fs.Symlink(c.ctx, string(data), p)
	}
	perm := vfs.DefaultFileMode
	if e.mode == filemode.Executable {
		perm = 0o755
	}
	if err := c.g.fs.WriteFile(c.ctx, p, data, &vfs.WriteOptions{MkdirAll: true}); err != nil {
		return err
	}
	return c.g.fs.Chmod(c.ctx, p, perm)
}

type diffFile struct {
	Path   string `json:"path"`
	Status string `json:"status"` // "added", "deleted", "modified"
}

// diffSides renders the unified diff from a to b (git's format), limited
// to paths under the names in only, if any.
func diffSides(a, b side, only []string) (string, []diffFile, error) {
	names := map[string]bool{}
	for n := range a {
		names[n] = true
	}
	for n := range b {
		names[n] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		if matches(n, only) {
			sorted = append(sorted, n)
		}
	}
	sort.Strings(sorted)
	var out strings.Builder
	files := []diffFile{}
	for _, n := range sorted {
		ea, inA := a[n]
		eb, inB := b[n]
		if inA && inB && ea.hash == eb.hash && ea.mode == eb.mode && !ea.hash.IsZero() {
			continue
		}
		var da, db []byte
		var err error
		if inA {
			if da, err = ea.read(); err != nil && err != errTooBig {
				return "", nil, err
			}
		}
		if inB {
			if db, err = eb.read(); err != nil && err != errTooBig {
				return "", nil, err
			}
		}
		if inA && inB && ea.mode == eb.mode && bytes.Equal(da, db) && err == nil {
			continue
		}
		st := "modified"
		fmt.Fprintf(&out, "diff --git a/%s b/%s\n", n, n)
		from, to := "a/"+n, "b/"+n
		switch {
		case !inA:
			st, from = "added", "/dev/null"
			fmt.Fprintf(&out, "new file mode %s\nindex %s..%s\n", modeText(eb.mode), short(plumbing.ZeroHash), short(eb.hash))
		case !inB:
			st, to = "deleted", "/dev/null"
			fmt.Fprintf(&out, "deleted file mode %s\nindex %s..%s\n", modeText(ea.mode), short(ea.hash), short(plumbing.ZeroHash))
		case ea.mode != eb.mode:
			fmt.Fprintf(&out, "old mode %s\nnew mode %s\n", modeText(ea.mode), modeText(eb.mode))
			if ea.hash != eb.hash {
				fmt.Fprintf(&out, "index %s..%s\n", short(ea.hash), short(eb.hash))
			}
		default:
			fmt.Fprintf(&out, "index %s..%s %s\n", short(ea.hash), short(eb.hash), modeText(ea.mode))
		}
		files = append(files, diffFile{Path: n, Status: st})
		if ea.hash == eb.hash && inA && inB {
			continue // a mode change only
		}
		if binary(da) || binary(db) || (inA && len(da) == 0 && ea.hash != emptyBlob) || (inB && len(db) == 0 && eb.hash != emptyBlob) {
			fmt.Fprintf(&out, "Binary files %s and %s differ\n", from, to)
			continue
		}
		out.WriteString(linediff.Unified(from, to, da, db, diffContext))
	}
	return out.String(), files, nil
}

var emptyBlob = plumbing.ComputeHash(plumbing.BlobObject, nil)

func matches(name string, only []string) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if o == "." || name == o || strings.HasPrefix(name, o+"/") {
			return true
		}
	}
	return false
}

func binary(b []byte) bool {
	if len(b) > 8000 {
		b = b[:8000]
	}
	return bytes.IndexByte(b, 0) >= 0
}

func short(h plumbing.Hash) string { return h.String()[:7] }

func modeText(m filemode.FileMode) string { return fmt.Sprintf("%06o", uint32(m)) }

// diff compares, like git diff: the index with the worktree (no revision),
// HEAD (or from) with the index (cached), a commit with the worktree
// (from), or two commits (from and to).
func (c *call) diff() (any, error) {
	if err := c.checkKeys("diff", "from", "to", "cached", "paths"); err != nil {
		return nil, err
	}
	r, err := c.open()
	if err != nil {
		return nil, err
	}
	from, _ := c.str("from")
	to, _ := c.str("to")
	cached, err := c.flag("cached")
	if err != nil {
		return nil, err
	}
	paths, err := c.strs("paths")
	if err != nil {
		return nil, err
	}
	var only []string
	for _, p := range paths {
		rel, err := c.rel(r, p)
		if err != nil {
			return nil, err
		}
		only = append(only, rel)
	}
	commit := func(rev string) (side, error) {
		h, err := c.resolve(r, rev)
		if err != nil {
			if rev == "HEAD" {
				return side{}, nil // unborn: an empty tree
			}
			return nil, err
		}
		cm, err := r.CommitObject(h)
		if err != nil {
			return nil, err
		}
		return commitSide(r, cm)
	}
	var a, b side
	switch {
	case to != "":
		if from == "" {
			from = "HEAD"
		}
		if a, err = commit(from); err == nil {
			b, err = commit(to)
		}
	case cached:
		if from == "" {
			from = "HEAD"
		}
		if a, err = commit(from); err == nil {
			b, err = indexSide(r)
		}
	case from != "":
		var idx side
		if a, err = commit(from); err == nil {
			if idx, err = indexSide(r); err == nil {
				b, err = c.worktreeSide(r, idx, a)
			}
		}
	default:
		if a, err = indexSide(r); err == nil {
			b, err = c.worktreeSide(r, a)
		}
	}
	if err != nil {
		return nil, err
	}
	d, files, err := diffSides(a, b, only)
	if err != nil {
		return nil, err
	}
	return map[string]any{"diff": d, "files": files}, nil
}
