// Package nook is a durable, sandboxed workspace for AI agents.
//
// A [Workspace] is one SQLite database file. It holds a virtual filesystem
// (package [github.com/nookdev/nook/vfs]): files, directories and symlinks
// with POSIX-like semantics, content-addressed storage, a change feed, grep
// and find. Every operation is committed to the database before the call
// returns (writes through an open file handle are buffered and committed at
// Sync, Close or the next operation), so a crash or a restart loses nothing
// that was committed.
//
// The same database holds the records of runs of model-written code
// ([Workspace.Runtime], package [github.com/nookdev/nook/runtime]): each run's
// request, status, value and output, stored as it happens so that any
// process sharing the workspace can follow a run. Backends run the code
// (JavaScript in [github.com/nookdev/nook/runtime/js]); sandboxed code
// reaches only the workspace under its backend's root, the host modules
// and the outbound network policy the embedder configures.
//
// Paths are canonicalised by one function ([vfs.Clean]) and no path leaves
// the workspace. Nothing is unbounded: sizes, counts and page lengths are
// capped by [vfs.Limits], runs by [runtime.Limits].
//
// Several goroutines may use a Workspace at once, and several processes may
// open the same workspace file.
//
//	ws, err := nook.Open(ctx, ".nook/workspace.db", nook.WithBackends(js.New(js.Options{})))
//	if err != nil { ... }
//	defer ws.Close()
//	err = ws.FS().WriteFile(ctx, "/workspace/notes/todo.md", []byte("- ship it\n"),
//		&vfs.WriteOptions{MkdirAll: true})
//	h, err := ws.Runtime().Exec(ctx, `export default (x) => x.n + 1`,
//		runtime.ExecOptions{Input: map[string]int{"n": 41}})
//	res, err := h.Result(ctx) // res.Value is 42
package nook

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"github.com/nookdev/nook/internal/wsdb"
	"github.com/nookdev/nook/journal"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// Workspace is an open workspace: one SQLite database and the filesystem
// stored in it. It is safe for concurrent use. Close it when done.
type Workspace struct {
	path    string
	fs      *vfs.FS // owns the database, which the journal and the runtime share
	store   *journal.Store
	runtime *runtime.Runtime
}

// Option configures Open and OpenMemory.
type Option func(*config)

type config struct {
	limits   vfs.Limits
	clock    func() time.Time
	syncFull bool
	onCommit func(Commit) error
	mounts   []mountSpec
	runtime  runtime.Options
	recover  bool
	sole     bool
	// isolation, when set, replaces runtime.Isolation.
	isolation runtime.Isolator
}

type mountSpec struct {
	root string
	fsys fs.FS
}

// WithLimits sets the workspace's limits. Zero fields keep their defaults
// (see [vfs.Limits] and the Default* constants in package vfs).
func WithLimits(l vfs.Limits) Option {
	return func(c *config) { c.limits = l }
}

// WithClock sets the clock used for timestamps (default [time.Now]). Tests
// use it to get deterministic times.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.clock = now }
}

// WithMount mounts fsys read-only at root once the workspace is open (see
// [vfs.FS.Mount]). Mounts live in memory: they are not stored in the
// database and must be given again on every Open. Several WithMount options
// are applied in order.
func WithMount(root string, fsys fs.FS) Option {
	return func(c *config) { c.mounts = append(c.mounts, mountSpec{root, fsys}) }
}

// WithSyncFull makes every commit fsync the write-ahead log, so committed
// work survives power loss and not only process crashes, at a large cost in
// write throughput. It has no effect on in-memory workspaces.
func WithSyncFull() Option {
	return func(c *config) { c.syncFull = true }
}

// WithBackends sets the execution backends of the workspace's runtime; the
// first is the default. Without any, Exec fails with a clear error:
//
//	ws, err := nook.Open(ctx, path, nook.WithBackends(js.New(js.Options{})))
func WithBackends(b ...runtime.Backend) Option {
	return func(c *config) { c.runtime.Backends = append(c.runtime.Backends, b...) }
}

// WithModules registers host modules that sandboxed code can import by
// name ("ws:orders"). Several WithModules options add up.
func WithModules(m map[string]runtime.Module) Option {
	return func(c *config) {
		if c.runtime.Modules == nil {
			c.runtime.Modules = map[string]runtime.Module{}
		}
		for k, v := range m {
			c.runtime.Modules[k] = v
		}
	}
}

// WithModuleDocs describes host modules to models and type checkers (see
// runtime.ModuleDoc): the exec tool's description lists them with their
// functions, and code can list them from ws:modules. Several WithModuleDocs
// options add up.
func WithModuleDocs(d map[string]runtime.ModuleDoc) Option {
	return func(c *config) {
		if c.runtime.ModuleDocs == nil {
			c.runtime.ModuleDocs = map[string]runtime.ModuleDoc{}
		}
		for k, v := range d {
			c.runtime.ModuleDocs[k] = v
		}
	}
}

// WithOutbound lets sandboxed code use fetch under the given policy.
// Without it, code has no network access.
func WithOutbound(o *runtime.Outbound) Option {
	return func(c *config) { c.runtime.Outbound = o }
}

// WithRecover resumes, in the background once the workspace is open, the
// runs that a dead process left interrupted (runs with the restart or
// replay policy; see runtime.Runtime.Recover).
func WithRecover() Option {
	return func(c *config) { c.recover = true }
}

// WithSoleOwner declares that no other process has the workspace open, nor
// will again with the runs it had: every run another runtime left running
// is interrupted as the workspace opens, whatever that runtime's lease says,
// and is then finished or resumed by its interrupt policy (at once with
// WithRecover). A fleet node uses it after taking a workspace over: the
// copy it restored from the replicated log is its own, and the runtimes
// recorded in it belonged to earlier owners, dead or fenced off.
func WithSoleOwner() Option {
	return func(c *config) { c.sole = true }
}

// WithIsolation runs every program of the workspace in the isolation tier
// iso: a *worker.Pool (package runtime/worker) runs each in a sandboxed
// worker process, with hard memory, CPU and time limits enforced from
// outside. Without it programs run in this process. The caller owns iso
// (one pool may serve several workspaces) and closes it after the
// workspaces.
func WithIsolation(iso runtime.Isolator) Option {
	return func(c *config) { c.isolation = iso }
}

// WithRuntime sets the runtime's options (limits, retention, concurrency,
// ...). Backends, modules and the outbound policy given with WithBackends,
// WithModules and WithOutbound are added to them.
func WithRuntime(o runtime.Options) Option {
	return func(c *config) {
		b, m, out, docs := c.runtime.Backends, c.runtime.Modules, c.runtime.Outbound, c.runtime.ModuleDocs
		c.runtime = o
		if docs != nil {
			merged := map[string]runtime.ModuleDoc{}
			for k, v := range o.ModuleDocs {
				merged[k] = v
			}
			c.runtime.ModuleDocs = merged
			for k, v := range docs {
				c.runtime.ModuleDocs[k] = v
			}
		}
		c.runtime.Backends = append(o.Backends, b...)
		if m != nil {
			if c.runtime.Modules == nil {
				c.runtime.Modules = map[string]runtime.Module{}
			}
			for k, v := range m {
				c.runtime.Modules[k] = v
			}
		}
		if out != nil {
			c.runtime.Outbound = out
		}
	}
}

// Open opens the workspace stored in the database file at path, creating the
// file (and its parent directory) when it does not exist. Errors are vfs
// errors: [vfs.Code] gives their code.
func Open(ctx context.Context, path string, opts ...Option) (*Workspace, error) {
	if path == "" || path == ":memory:" {
		return nil, &vfs.PathError{Op: "open", Path: path, Code: vfs.EINVAL,
			Text: "workspace path is empty (use OpenMemory for an in-memory workspace)"}
	}
	return open(ctx, path, opts)
}

// OpenMemory opens a private workspace that lives only in memory and
// vanishes when it is closed. It is meant for tests and short-lived tools.
func OpenMemory(ctx context.Context, opts ...Option) (*Workspace, error) {
	return open(ctx, "", opts)
}

func open(ctx context.Context, path string, opts []Option) (*Workspace, error) {
	var c config
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	// The filesystem owns the database; the journal and the runtime share it.
	f, err := vfs.Open(ctx, path, &vfs.Options{Limits: c.limits, Now: c.clock, DB: vfs.DBOptions{SyncFull: c.syncFull, OnCommit: c.onCommit}})
	if err != nil {
		return nil, err
	}
	ws := &Workspace{path: wsdb.DB(f).Path(), fs: f}
	for _, m := range c.mounts {
		if err := f.Mount(ctx, m.root, m.fsys); err != nil {
			ws.Close()
			return nil, err
		}
	}
	if ws.store, err = journal.Open(ctx, f); err != nil {
		ws.Close()
		return nil, &vfs.PathError{Op: "open", Path: path, Code: vfs.EIO, Text: err.Error(), Err: err}
	}
	if c.sole {
		if err := ws.store.ReleaseAll(ctx); err != nil {
			ws.Close()
			return nil, &vfs.PathError{Op: "open", Path: path, Code: vfs.EIO, Text: err.Error(), Err: err}
		}
	}
	if c.runtime.Now == nil {
		c.runtime.Now = c.clock
	}
	if c.isolation != nil {
		c.runtime.Isolation = c.isolation
	}
	if c.recover {
		c.runtime.Recover = true
	}
	if ws.runtime, err = runtime.New(ctx, f, ws.store, c.runtime); err != nil {
		ws.Close()
		return nil, &vfs.PathError{Op: "open", Path: path, Code: vfs.EINVAL, Text: err.Error(), Err: err}
	}
	return ws, nil
}

// FS returns the workspace's filesystem.
func (w *Workspace) FS() *vfs.FS { return w.fs }

// Path returns the database file name, or ":memory:" for a workspace opened
// with OpenMemory.
func (w *Workspace) Path() string { return w.path }

// Runtime returns the workspace's runtime: Exec runs code on its
// backends, GetExec re-attaches to runs, KillExec and DisposeExec end them.
func (w *Workspace) Runtime() *runtime.Runtime { return w.runtime }

// Close cancels running runs (they are recorded as cancelled), flushes
// pending writes of open file handles and closes the database. Closing
// twice is harmless.
func (w *Workspace) Close() error {
	var rerr error
	if w.runtime != nil {
		rerr = w.runtime.Close()
	}
	return errors.Join(rerr, w.fs.Close())
}
