package git

import (
	"bytes"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/nookdev/nook/vfs"
)

// A snapshot is what a command that moves HEAD or the worktree found
// before its first effect: the repository's files outside objects/ (refs,
// HEAD, the index, reflogs, merge and rebase state) and the worktree's
// tracked files that differ from the index. A command repeated after a
// crash (its receipt still pending) first puts these back, then runs
// again with the same clock, so it does what the first attempt did and
// prints what it printed: objects are content-addressed, so the first
// attempt's objects are the repeat's too.
type snapshot struct {
	Git  map[string][]byte `json:"git"`
	Work map[string]*wsave `json:"work,omitempty"`
	// Untracked lists the worktree's files that were not in the index
	// (ignored ones included), so a repeat can tell a file the first
	// attempt checked out before its crash kept the index from naming
	// it. nil in a snapshot written before it was recorded.
	Untracked []string `json:"untracked"`
}

// wsave is a dirty worktree file: its content and mode, or nothing when
// the file was missing.
type wsave struct {
	Data []byte `json:"data,omitempty"`
	Mode uint32 `json:"mode,omitempty"`
	Gone bool   `json:"gone,omitempty"`
}

// maxSnapshotBytes bounds a snapshot; a bigger state is not snapshotted
// and a repeat runs on whatever the first attempt left.
const maxSnapshotBytes = 16 << 20

// snapshotCommands are the command lines whose repeat restores their
// snapshot.
var snapshotCommands = map[string]bool{
	"checkout": true, "switch": true, "merge": true, "rebase": true, "cherry-pick": true, "revert": true,
	"reset": true, "stash": true, "commit": true, "branch": true, "tag": true, "restore": true, "rm": true, "mv": true,
}

func (x *cli) takeSnapshot() *snapshot {
	s := &snapshot{Git: map[string][]byte{}, Work: map[string]*wsave{}}
	total := 0
	dot := x.r.root + "/.git"
	page := vfs.Page{Limit: 5000}
	for {
		l, err := x.fs().Find(x.ctx(), dot, "", &vfs.FindOptions{Page: page, Exclude: []string{"objects"}})
		if err != nil {
			return nil
		}
		for _, e := range l.Entries {
			if e.Kind != vfs.TypeFile {
				continue
			}
			b, err := x.fs().ReadFile(x.ctx(), e.Path)
			if err != nil {
				return nil
			}
			total += len(b)
			s.Git[strings.TrimPrefix(e.Path, dot+"/")] = b
		}
		if l.NextOffset == 0 {
			break
		}
		page.Offset = l.NextOffset
	}
	st, err := x.state(nil, "no")
	if err != nil {
		return nil
	}
	for _, c := range st.changes {
		if c.y == ' ' && c.unmerged == "" {
			continue
		}
		w, ok := x.scanned[c.path]
		if !ok {
			s.Work[c.path] = &wsave{Gone: true}
			continue
		}
		b, err := x.readWork(c.path, w)
		if err != nil {
			return nil
		}
		total += len(b)
		s.Work[c.path] = &wsave{Data: b, Mode: uint32(w.mode)}
	}
	tracked := map[string]bool{}
	if i, err := x.r.readIndex(); err == nil {
		for _, n := range i.flatNames() {
			tracked[n] = true
		}
	}
	s.Untracked = []string{}
	for p := range x.scanned {
		if !tracked[p] {
			s.Untracked = append(s.Untracked, p)
			total += len(p)
		}
	}
	sort.Strings(s.Untracked)
	if total > maxSnapshotBytes {
		return nil
	}
	return s
}

// restoreSnapshot puts the repository back as s recorded it.
func (x *cli) restoreSnapshot(s *snapshot) error {
	dot := x.r.root + "/.git"
	// The index as it is now, to know what the first attempt checked out.
	nowIdx, _ := x.r.readIndex()
	l, err := x.fs().Find(x.ctx(), dot, "", &vfs.FindOptions{Page: vfs.Page{Limit: 5000}, Exclude: []string{"objects"}})
	if err != nil {
		return err
	}
	for _, e := range l.Entries {
		rel := strings.TrimPrefix(e.Path, dot+"/")
		if _, ok := s.Git[rel]; !ok && e.Kind == vfs.TypeFile {
			x.fs().Remove(x.ctx(), e.Path, nil)
		}
	}
	for rel, b := range s.Git {
		if err := x.fs().WriteFile(x.ctx(), path.Join(dot, rel), b, &vfs.WriteOptions{MkdirAll: true}); err != nil {
			return err
		}
	}
	pre := &idx{}
	if b, ok := s.Git["index"]; ok {
		var i index.Index
		if err := index.NewDecoder(bytes.NewReader(b)).Decode(&i); err == nil {
			pre.entries = i.Entries
			pre.sort()
		}
	}
	x.invalidate()
	ws, err := x.scan()
	if err != nil {
		return err
	}
	names := map[string]bool{}
	for _, n := range pre.flatNames() {
		names[n] = true
	}
	for _, n := range nowIdx.flatNames() {
		names[n] = true
	}
	for n := range s.Work {
		names[n] = true
	}
	for n := range names {
		if w, ok := s.Work[n]; ok {
			if w.Gone {
				x.removeWork(n)
			} else if err := x.writeWorkData(n, filemode.FileMode(w.Mode), w.Data); err != nil {
				return err
			}
			continue
		}
		e := pre.get(n)
		if e == nil {
			st := pre.stages(n)
			if st[2] != nil {
				e = st[2]
			}
		}
		if e != nil {
			cur, ok := ws[n]
			if ok && cur.mode == e.Mode {
				if h, err := x.workHash(n, cur, nil); err == nil && h == e.Hash {
					continue
				}
			}
			if err := x.writeWork(n, tfile{e.Hash, e.Mode}); err != nil {
				return err
			}
			continue
		}
		// Not tracked before: the first attempt checked it out.
		if ne := nowIdx.get(n); ne != nil {
			if cur, ok := ws[n]; ok {
				if h, err := x.workHash(n, cur, nil); err == nil && h == ne.Hash {
					x.removeWork(n)
				}
			}
		}
	}
	if s.Untracked != nil {
		// A file in neither index nor the snapshot that holds a blob of
		// the repository is one the first attempt checked out before its
		// index was written (the index is written last): the repeat
		// would find it in its way. A file someone else made meanwhile
		// is left alone.
		was := map[string]bool{}
		for _, n := range s.Untracked {
			was[n] = true
		}
		for n, cur := range ws {
			if names[n] || was[n] {
				continue
			}
			if h, err := x.workHash(n, cur, nil); err == nil && x.r.Storer.HasEncodedObject(h) == nil {
				if err := x.removeWork(n); err != nil {
					return err
				}
			}
		}
	}
	x.invalidate()
	x.idxMtime = 0
	// The worktree is as the first attempt found it: what the repeat
	// changes is reported against this state, not against the restore.
	clear(x.touched)
	return nil
}
