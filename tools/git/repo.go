package git

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// dir returns the directory a call works from: its "dir" option (absolute,
// or relative to the root; for run, the working directory), confined to
// the root, canonical.
func (c *call) dir() (string, error) {
	d, err := c.str("dir")
	if err != nil {
		return "", err
	}
	root := c.g.opts.Root
	switch {
	case d == "":
		d = root
	case !strings.HasPrefix(d, "/"):
		d = path.Join(root, d)
	}
	p, err := c.g.fs.ResolveBeneath(c.ctx, root, d, true)
	if err != nil {
		if vfs.Code(err) == "EACCES" {
			return "", fmt.Errorf("%s is outside %s, where git works", d, root)
		}
		return "", err
	}
	return p, nil
}

// findWorktree returns the worktree holding dir: dir or its nearest
// parent, up to the root, that has a .git directory.
func (c *call) findWorktree(dir string) (string, bool) {
	root := c.g.opts.Root
	for d := dir; ; d = path.Dir(d) {
		if fi, err := c.g.fs.Stat(c.ctx, path.Join(d, ".git")); err == nil && fi.IsDir() {
			return d, true
		}
		if d == root || d == "/" || !strings.HasPrefix(d, root) {
			return "", false
		}
	}
}

// repo is an open repository.
type repo struct {
	*gogit.Repository
	wt   *billyFS
	root string // the worktree's workspace path
}

// storage returns go-git's storage and worktree over the worktree at dir.
func (c *call) storage(dir string) (*filesystem.Storage, *billyFS) {
	wt := newBilly(c.ctx, c.g.fs, dir, c.g.opts.Root)
	dot, _ := wt.Chroot(".git")
	return filesystem.NewStorage(dot, cache.NewObjectLRUDefault()), wt
}

// open opens the repository that holds the call's directory.
func (c *call) open() (*repo, error) {
	dir, err := c.dir()
	if err != nil {
		return nil, err
	}
	root, ok := c.findWorktree(dir)
	if !ok {
		return nil, fmt.Errorf("not a git repository (or any parent up to %s): %s", c.g.opts.Root, dir)
	}
	st, wt := c.storage(root)
	r, err := c.openStorage(st, wt)
	if err != nil {
		if errors.Is(err, gogit.ErrRepositoryNotExists) {
			return nil, fmt.Errorf("not a git repository: %s", root)
		}
		return nil, err
	}
	return &repo{Repository: r, wt: wt, root: root}, nil
}

// rel turns a path the call gave (relative to its directory, or absolute)
// into a path relative to the worktree, refusing one outside it.
func (c *call) rel(r *repo, p string) (string, error) {
	dir, err := c.dir()
	if err != nil {
		return "", err
	}
	abs := p
	if !strings.HasPrefix(p, "/") {
		abs = path.Join(dir, p)
	}
	abs = path.Clean(abs)
	if abs == r.root {
		return ".", nil
	}
	if !strings.HasPrefix(abs, r.root+"/") {
		return "", fmt.Errorf("%s is outside the repository at %s", p, r.root)
	}
	return strings.TrimPrefix(abs, r.root+"/"), nil
}

// A receipt makes a mutating call safe to repeat: when a replay runs a
// call again whose result a crash kept out of the journal, the call finds
// the receipt it left and returns its result. commit also leaves a pending
// receipt before it moves the branch, so a repeat can tell whether the
// commit happened (see RATIONALE.md).
type receipt struct {
	c    *call
	g    *Git
	path string
	fn   string
	args json.RawMessage
	file receiptFile
	had  bool
}

type receiptFile struct {
	Fn      string          `json:"fn"`
	Args    json.RawMessage `json:"args"`
	State   string          `json:"state"` // "pending" or "done"
	Pending json.RawMessage `json:"pending,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
}

func (g *Git) receiptFor(cc *runtime.CallContext, fn string, a map[string]any) *receipt {
	n := strings.TrimPrefix(cc.CallID, cc.RunID+"/")
	if cc.RunID == "" || n == cc.CallID || n == "" || strings.ContainsAny(n, "/.") {
		return nil
	}
	args, err := json.Marshal(a)
	if err != nil {
		return nil
	}
	dir := strings.TrimSuffix(g.opts.ReceiptDir, "/")
	return &receipt{g: g, path: dir + "/" + cc.RunID + "/calls/" + n + ".json", fn: fn, args: args}
}

// load reads the receipt, if this call left one.
func (r *receipt) load(c *call) {
	if r == nil || r.c != nil {
		return
	}
	r.c = c
	b, err := r.g.fs.ReadFile(c.ctx, r.path)
	if err != nil {
		return
	}
	var f receiptFile
	if json.Unmarshal(b, &f) != nil || f.Fn != r.fn || string(f.Args) != string(r.args) {
		return // another call with this number (a restarted run)
	}
	r.file, r.had = f, true
}

// doneResult returns the result a finished earlier execution of the call
// recorded.
func (c *call) doneResult() (any, bool) {
	r := c.rc
	if r == nil {
		return nil, false
	}
	r.load(c)
	if !r.had || r.file.State != "done" {
		return nil, false
	}
	var v any
	if json.Unmarshal(r.file.Result, &v) != nil {
		return nil, false
	}
	return v, true
}

// pending returns what an earlier execution recorded before it finished.
func (c *call) pending(v any) bool {
	r := c.rc
	if r == nil {
		return false
	}
	r.load(c)
	if !r.had || r.file.State != "pending" {
		return false
	}
	return json.Unmarshal(r.file.Pending, v) == nil
}

// setPending records v before an effect that cannot be repeated blindly.
func (c *call) setPending(v any) error {
	r := c.rc
	if r == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return r.write(c, receiptFile{Fn: r.fn, Args: r.args, State: "pending", Pending: b})
}

func (r *receipt) write(c *call, f receiptFile) error {
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return r.g.fs.WriteFile(c.ctx, r.path, data, &vfs.WriteOptions{MkdirAll: true})
}

// finish records the call's result.
func (r *receipt) finish(result []byte) {
	if r == nil || r.c == nil {
		return
	}
	r.write(r.c, receiptFile{Fn: r.fn, Args: r.args, State: "done", Result: result})
}
