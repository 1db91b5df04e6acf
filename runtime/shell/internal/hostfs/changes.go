package hostfs

import (
	"context"
	"path"
	"sort"
	"strings"
	"sync"
)

// Changes records which paths a run's commands mutated, with what each was
// before its first mutation, so the run can report the files it created,
// updated and deleted. A path is looked at (lstat) once, before the first
// mutation of it, and once more when the report is made.
type Changes struct {
	fs    *FS
	mu    sync.Mutex
	prior map[string]string // path → kind before the run touched it ("" when absent)
}

func newChanges(f *FS) *Changes { return &Changes{fs: f, prior: map[string]string{}} }

func (c *Changes) known(p string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.prior[p]
	return ok
}

func (c *Changes) set(p, kind string) {
	c.mu.Lock()
	if _, ok := c.prior[p]; !ok {
		c.prior[p] = kind
	}
	c.mu.Unlock()
}

// before records the state of p before a mutation.
func (c *Changes) before(ctx context.Context, p string) {
	p = path.Clean(p)
	if c.known(p) {
		return
	}
	kind := ""
	if fi, err := c.fs.Lstat(ctx, p); err == nil {
		kind = fi.Kind
	} else if Code(err) != "ENOENT" && Code(err) != "ENOTDIR" {
		return // outside the root, or unreadable: the mutation fails too
	}
	c.set(p, kind)
}

// beforeTree records p and, for a directory about to be removed or moved
// as a whole, everything below it.
func (c *Changes) beforeTree(ctx context.Context, p string, recursive bool) {
	p = path.Clean(p)
	c.before(ctx, p)
	c.mu.Lock()
	kind := c.prior[p]
	c.mu.Unlock()
	if !recursive || kind != "dir" {
		return
	}
	entries, err := c.fs.ReadDirRecursive(ctx, p)
	if err != nil {
		return
	}
	for _, e := range entries {
		c.set(p+"/"+e.Name, e.Kind)
	}
}

// Touched records what p was before a change made outside the shell's own
// file operations (a host module such as ws:git wrote it): kind is "" when
// p did not exist, else "file", "dir" or "symlink". A path the run changed
// before keeps its first record.
func (c *Changes) Touched(p, kind string) { c.set(path.Clean(p), kind) }

// created records that p did not exist before the run made it.
func (c *Changes) created(p string) { c.set(path.Clean(p), "") }

// wrote is called after a mutation of p.
func (c *Changes) wrote(string, error) {}

// movedTree records that what was below from now lives below to.
func (c *Changes) movedTree(from, to string) {
	from, to = path.Clean(from), path.Clean(to)
	c.mu.Lock()
	defer c.mu.Unlock()
	for p := range c.prior {
		if strings.HasPrefix(p, from+"/") {
			q := to + p[len(from):]
			if _, ok := c.prior[q]; !ok {
				c.prior[q] = ""
			}
		}
	}
}

// Report is the set of changes a run made, by kind, each list sorted.
type Report struct {
	Created     []string `json:"created"`
	Updated     []string `json:"updated"`
	Deleted     []string `json:"deleted"`
	DirsCreated []string `json:"dirsCreated"`
	DirsDeleted []string `json:"dirsDeleted"`
}

// Report compares each recorded path with what it is now.
func (c *Changes) Report(ctx context.Context) Report {
	c.mu.Lock()
	paths := make([]string, 0, len(c.prior))
	for p := range c.prior {
		paths = append(paths, p)
	}
	prior := make(map[string]string, len(c.prior))
	for k, v := range c.prior {
		prior[k] = v
	}
	c.mu.Unlock()
	sort.Strings(paths)
	r := Report{Created: []string{}, Updated: []string{}, Deleted: []string{}, DirsCreated: []string{}, DirsDeleted: []string{}}
	gone := map[string]bool{}
	for _, p := range paths {
		now := ""
		parentGone := false
		for d := path.Dir(p); d != "/" && d != "."; d = path.Dir(d) {
			if gone[d] {
				parentGone = true
				break
			}
		}
		if !parentGone {
			fi, err := c.fs.Lstat(ctx, p)
			if err == nil {
				now = fi.Kind
			} else if Code(err) != "ENOENT" && Code(err) != "ENOTDIR" {
				continue
			}
		}
		if now == "" {
			gone[p] = true
		}
		was := prior[p]
		isDir := func(k string) bool { return k == "dir" }
		switch {
		case was == "" && now == "":
		case was == "":
			if isDir(now) {
				r.DirsCreated = append(r.DirsCreated, p)
			} else {
				r.Created = append(r.Created, p)
			}
		case now == "":
			if isDir(was) {
				r.DirsDeleted = append(r.DirsDeleted, p)
			} else {
				r.Deleted = append(r.Deleted, p)
			}
		case isDir(was) != isDir(now):
			if isDir(was) {
				r.DirsDeleted = append(r.DirsDeleted, p)
				r.Created = append(r.Created, p)
			} else {
				r.Deleted = append(r.Deleted, p)
				r.DirsCreated = append(r.DirsCreated, p)
			}
		case !isDir(now):
			r.Updated = append(r.Updated, p)
		}
	}
	return r
}

// maxFeedPages bounds the pages of the change feed Since reads (each at
// most 1000 changes): a nested run that changed more is reported in part.
const maxFeedPages = 16

// Rev returns the workspace's current change revision (the "changes" op
// with since -1), for Since.
func (f *FS) Rev(ctx context.Context) (int64, error) {
	v, err := f.call(ctx, "changes", map[string]any{"since": float64(-1)})
	if err != nil {
		return 0, err
	}
	m, _ := v.(map[string]any)
	return int64(num(m, "rev")), nil
}

// Since records in the change report the paths changed under the root
// after revision rev, by anyone (a nested run started by a command): each
// with what it was before, as the change feed tells it.
func (c *Changes) Since(ctx context.Context, rev int64) {
	for range maxFeedPages {
		v, err := c.fs.call(ctx, "changes", map[string]any{"since": float64(rev)})
		if err != nil {
			return
		}
		m, _ := v.(map[string]any)
		list, _ := m["changes"].([]any)
		for _, e := range list {
			ch, _ := e.(map[string]any)
			op, _ := ch["op"].(string)
			p, _ := ch["path"].(string)
			old, _ := ch["oldPath"].(string)
			kind, _ := ch["kind"].(string)
			switch op {
			case "create", "link":
				if p != "" {
					c.Touched(p, "")
				}
			case "write", "remove":
				if p != "" {
					c.Touched(p, kind)
				}
			case "rename":
				if old != "" {
					c.Touched(old, kind)
				}
				if p != "" {
					c.Touched(p, "")
				}
			}
		}
		next := int64(num(m, "rev"))
		if len(list) == 0 || next <= rev {
			return
		}
		rev = next
	}
}
