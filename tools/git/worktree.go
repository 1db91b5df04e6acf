package git

import (
	"errors"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/nookdev/nook/vfs"
)

// wfile is a file of the worktree as a scan saw it.
type wfile struct {
	mode  filemode.FileMode
	size  int64
	mtime int64
	inode int64
}

// scan lists the worktree's files (regular files and symlinks, .git
// excluded), by path relative to the worktree.
func (x *cli) scan() (map[string]wfile, error) {
	if x.scanned != nil {
		return x.scanned, nil
	}
	out := map[string]wfile{}
	page := vfs.Page{Limit: 5000}
	for {
		l, err := x.fs().Find(x.ctx(), x.r.root, "", &vfs.FindOptions{Page: page, Exclude: []string{".git"}})
		if err != nil {
			return nil, err
		}
		for _, e := range l.Entries {
			rel := strings.TrimPrefix(e.Path, x.r.root+"/")
			switch e.Kind {
			case vfs.TypeFile:
				m := filemode.Regular
				if e.Mode&0o100 != 0 {
					m = filemode.Executable
				}
				out[rel] = wfile{mode: m, size: e.Size, mtime: e.Mtime.UnixNano(), inode: e.Inode}
			case vfs.TypeSymlink:
				out[rel] = wfile{mode: filemode.Symlink, size: e.Size, mtime: e.Mtime.UnixNano(), inode: e.Inode}
			}
		}
		if l.NextOffset == 0 {
			break
		}
		page.Offset = l.NextOffset
	}
	x.scanned = out
	return out, nil
}

// invalidate forgets the scan after the worktree changed.
func (x *cli) invalidate() { x.scanned = nil }

// readWork returns a worktree file's content (a symlink's target).
func (x *cli) readWork(rel string, w wfile) ([]byte, error) {
	p := path.Join(x.r.root, rel)
	if w.mode == filemode.Symlink {
		t, err := x.fs().Readlink(x.ctx(), p)
		return []byte(t), err
	}
	return x.fs().ReadFile(x.ctx(), p)
}

// workHash returns the blob hash of a worktree file, trusting the index's
// stat data when it matches and is not racy.
func (x *cli) workHash(rel string, w wfile, e *ientry) (plumbing.Hash, error) {
	if e != nil && e.Mode == w.mode && int64(e.Size) == w.size && e.ModifiedAt.UnixNano() == w.mtime &&
		w.mtime != 0 && w.mtime < x.indexMtime() {
		return e.Hash, nil
	}
	data, err := x.readWork(rel, w)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return plumbing.ComputeHash(plumbing.BlobObject, data), nil
}

func (x *cli) indexMtime() int64 {
	if x.idxMtime == 0 {
		if fi, err := x.fs().Lstat(x.ctx(), x.r.root+"/.git/index"); err == nil {
			x.idxMtime = fi.Mtime.UnixNano()
		} else {
			x.idxMtime = -1
		}
	}
	return x.idxMtime
}

// entryFor makes an index entry for a worktree file, storing its blob.
func (x *cli) entryFor(rel string, w wfile) (*ientry, error) {
	data, err := x.readWork(rel, w)
	if err != nil {
		return nil, err
	}
	h, err := x.r.writeObject(plumbing.BlobObject, data)
	if err != nil {
		return nil, err
	}
	return &ientry{Name: rel, Hash: h, Mode: w.mode, Size: uint32(w.size), ModifiedAt: time.Unix(0, w.mtime),
		CreatedAt: time.Unix(0, w.mtime), Inode: uint32(w.inode)}, nil
}

// ignorer decides which untracked paths are ignored (.gitignore files and
// .git/info/exclude).
func (x *cli) ignorer() gitignore.Matcher {
	if x.ign != nil {
		return x.ign
	}
	ps, _ := gitignore.ReadPatterns(x.r.wt, nil)
	if data, ok := x.r.wt.readRaw(".git/info/exclude"); ok {
		for _, l := range strings.Split(string(data), "\n") {
			if l = strings.TrimRight(l, " \r"); l != "" && !strings.HasPrefix(l, "#") {
				ps = append(ps, gitignore.ParsePattern(l, nil))
			}
		}
	}
	x.ign = gitignore.NewMatcher(ps)
	return x.ign
}

func (x *cli) ignored(rel string, dir bool) bool {
	return x.ignorer().Match(strings.Split(rel, "/"), dir)
}

// touch records what a worktree path was before the command changes it,
// for the run's Changes report.
func (x *cli) touch(rel string) {
	p := path.Join(x.r.root, rel)
	if _, ok := x.touched[p]; ok {
		return
	}
	kind := ""
	if fi, err := x.fs().Lstat(x.ctx(), p); err == nil {
		kind = fi.Kind.String()
	}
	x.touched[p] = kind
}

// writeWork writes a file into the worktree, its directories included.
func (x *cli) writeWork(rel string, f tfile) error {
	data, err := x.r.readBlob(f.hash)
	if err != nil {
		return err
	}
	return x.writeWorkData(rel, f.mode, data)
}

func (x *cli) writeWorkData(rel string, mode filemode.FileMode, data []byte) error {
	x.invalidate()
	p := path.Join(x.r.root, rel)
	if _, err := x.fs().ResolveBeneath(x.ctx(), x.c.g.opts.Root, p, false); err != nil {
		return err
	}
	for d := dirOf(rel); d != ""; d = dirOf(d) {
		fi, err := x.fs().Lstat(x.ctx(), path.Join(x.r.root, d))
		if err == nil && fi.IsDir() {
			break
		}
		if err == nil {
			// A file where a directory must be.
			x.touch(d)
			if err := x.fs().Remove(x.ctx(), path.Join(x.r.root, d), nil); err != nil {
				return err
			}
		}
		x.touch(d)
	}
	x.touch(rel)
	if fi, err := x.fs().Lstat(x.ctx(), p); err == nil {
		if fi.IsDir() {
			if err := x.fs().Remove(x.ctx(), p, &vfs.RemoveOptions{Recursive: true}); err != nil {
				return err
			}
		} else if fi.Kind == vfs.TypeSymlink || mode == filemode.Symlink {
			if err := x.fs().Remove(x.ctx(), p, nil); err != nil {
				return err
			}
		}
	}
	if mode == filemode.Symlink {
		if err := x.fs().MkdirAll(x.ctx(), path.Dir(p), 0o755); err != nil {
			return err
		}
		return x.fs().Symlink(x.ctx(), string(data), p)
	}
	if err := x.fs().WriteFile(x.ctx(), p, data, &vfs.WriteOptions{MkdirAll: true}); err != nil {
		return err
	}
	perm := vfs.DefaultFileMode
	if mode == filemode.Executable {
		perm = 0o755
	}
	return x.fs().Chmod(x.ctx(), p, perm)
}

// removeWork removes a worktree file and the directories it leaves empty.
func (x *cli) removeWork(rel string) error {
	x.invalidate()
	p := path.Join(x.r.root, rel)
	if _, err := x.fs().Lstat(x.ctx(), p); err != nil {
		return nil
	}
	x.touch(rel)
	if err := x.fs().Remove(x.ctx(), p, nil); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for d := dirOf(rel); d != ""; d = dirOf(d) {
		dp := path.Join(x.r.root, d)
		l, err := x.fs().ReadDir(x.ctx(), dp, vfs.Page{Limit: 1})
		if err != nil || len(l.Entries) > 0 {
			break
		}
		x.touch(d)
		if x.fs().Remove(x.ctx(), dp, nil) != nil {
			break
		}
	}
	return nil
}

// stampEntry refreshes an entry's stat data from the worktree file.
func (x *cli) stampEntry(e *ientry) {
	fi, err := x.fs().Lstat(x.ctx(), path.Join(x.r.root, e.Name))
	if err != nil {
		return
	}
	e.Size = uint32(fi.Bytes)
	e.ModifiedAt = fi.Mtime
	e.CreatedAt = e.ModifiedAt
	e.Inode = uint32(fi.Inode)
}

// dirty reports whether the worktree's file differs from the index entry
// (missing counts as different).
func (x *cli) dirty(name string, e *ientry) (bool, error) {
	ws, err := x.scan()
	if err != nil {
		return false, err
	}
	w, ok := ws[name]
	if !ok {
		return true, nil
	}
	if e == nil {
		return true, nil
	}
	if w.mode != e.Mode {
		return true, nil
	}
	h, err := x.workHash(name, w, e)
	return h != e.Hash, err
}

// switchErr is a two-way merge refused because of local changes.
type switchErr struct {
	local, untracked []string
}

func (e *switchErr) Error() string { return "local changes" }

// twoWay moves the index and worktree from the tree from to the tree to,
// as git's checkout does: paths equal in both keep their local changes; a
// path that differs must be clean, else the move is refused and nothing
// changes. With force, everything tracked follows to.
func (x *cli) twoWay(from, to flat, ix *idx, force bool) error {
	if ps, ok := x.r.Storer.(*promisorStore); ok {
		// A partial clone fetches the blobs the move writes in one
		// request first, as git does.
		var want []plumbing.Hash
		for n, b := range to {
			if a, ok := from[n]; (!ok || a.hash != b.hash) && b.mode != filemode.Submodule {
				want = append(want, b.hash)
			}
		}
		if err := ps.prefetch(want); err != nil {
			return err
		}
	}
	names := map[string]bool{}
	for n := range from {
		names[n] = true
	}
	for n := range to {
		names[n] = true
	}
	ws, err := x.scan()
	if err != nil {
		return err
	}
	var local, untracked []string
	type step struct {
		name string
		f    tfile
		del  bool
	}
	var steps []step
	for n := range names {
		a, inA := from[n]
		b, inB := to[n]
		e := ix.get(n)
		st := ix.stages(n)
		conflicted := st[1] != nil || st[2] != nil || st[3] != nil
		if inA == inB && a == b && !force && !conflicted {
			continue
		}
		if force {
			if inB {
				steps = append(steps, step{name: n, f: b})
			} else if inA || e != nil || conflicted {
				steps = append(steps, step{name: n, del: true})
			}
			continue
		}
		// The index must match from (or already be to).
		idxIs := func(t tfile, in bool) bool {
			if !in {
				return e == nil
			}
			return e != nil && e.Hash == t.hash && e.Mode == t.mode
		}
		if idxIs(b, inB) && !conflicted {
			continue
		}
		if !idxIs(a, inA) || conflicted {
			local = append(local, n)
			continue
		}
		if w, ok := ws[n]; ok {
			if e != nil {
				h, err := x.workHash(n, w, e)
				if err != nil {
					return err
				}
				if h != e.Hash || w.mode != e.Mode {
					local = append(local, n)
					continue
				}
			} else {
				untracked = append(untracked, n)
				continue
			}
		}
		if inB {
			steps = append(steps, step{name: n, f: b})
		} else {
			steps = append(steps, step{name: n, del: true})
		}
	}
	if len(local)+len(untracked) > 0 {
		sort.Strings(local)
		sort.Strings(untracked)
		return &switchErr{local: local, untracked: untracked}
	}
	sort.Slice(steps, func(i, j int) bool { return steps[i].name < steps[j].name })
	// Deletions first (a file may become a directory).
	for _, s := range steps {
		if s.del {
			ix.remove(s.name)
			if err := x.removeWork(s.name); err != nil {
				return err
			}
		}
	}
	for _, s := range steps {
		if s.del {
			continue
		}
		if err := x.writeWork(s.name, s.f); err != nil {
			return err
		}
		e := &ientry{Name: s.name, Hash: s.f.hash, Mode: s.f.mode}
		x.stampEntry(e)
		ix.set(e)
	}
	if force {
		// Tracked files of neither tree go too (reset --hard).
		for _, n := range ix.flatNames() {
			if _, ok := to[n]; !ok {
				ix.remove(n)
				if err := x.removeWork(n); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (x *idx) flatNames() []string {
	var out []string
	for _, e := range x.entries {
		if len(out) == 0 || out[len(out)-1] != e.Name {
			out = append(out, e.Name)
		}
	}
	return out
}
