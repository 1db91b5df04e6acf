// Package git is the ws:git host module: git over the workspace, on go-git.
//
// The repository's worktree is a directory of the workspace (the module's
// Root, default /workspace, or a directory under it) and its objects,
// index and refs live in that directory's .git, all through a go-billy
// filesystem over the workspace (billyfs.go): a workspace exported to disk
// is a repository the git command line reads. Nothing reaches the host's
// filesystem, and the network only through clone, fetch and push when the
// embedder allows it (Options.AllowNetwork with an outbound policy).
//
// Code imports the commands as functions ("import { status, commit } from
// \"ws:git\""), each taking an options object and returning a JSON result;
// run takes a git command line ({args: ["log", "--oneline"]}) and returns
// its text output, which is what the shell's git command and "nook git"
// print.
package git

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// ModuleName is the name code imports the module from.
const ModuleName = "ws:git"

// ErrGit is the code of the exception a failed git command raises in code.
const ErrGit = "ERR_GIT"

// Identity is who commits and tags are by.
type Identity struct {
	Name  string
	Email string
}

// DefaultGitIdentity is the identity of commits when Options.Identity is
// empty and the call names none.
var DefaultGitIdentity = Identity{Name: "nook", Email: "nook@localhost"}

// Options configure the module.
type Options struct {
	// Root is the directory of the workspace git works in (default
	// "/workspace"): repositories are found at or under it, and no path,
	// symlink or repository reaches outside it. Use the same root as the
	// backends.
	Root string
	// Identity is the author and committer of commits and tags (default
	// DefaultGitIdentity); a call may name another.
	Identity Identity
	// AllowNetwork enables clone, fetch and push, which also need Outbound:
	// without both they fail. Only http and https remotes are served,
	// through Outbound's transport and host list.
	AllowNetwork bool
	Outbound     *runtime.Outbound
	// Credentials, when set, returns the headers (an Authorization
	// header, say) to send with every request of clone, fetch, pull, push
	// and ls-remote to host (host:port). It is the only source of
	// credentials: never the guest's environment or a URL's user:password
	// (refused), and the headers are never written to the repository, the
	// output or the journal.
	Credentials func(host string) http.Header
	// MaxResponseBytes bounds one response of a transfer (the refs a
	// server advertises, the pack a clone, fetch or pull receives, a
	// push's report), default DefaultMaxResponseBytes. A server that
	// sends more fails the command with a *ResponseLimitError naming
	// this limit (EFBIG), and a clone leaves no repository. The
	// workspace's own quotas (MaxTotalBytes, MaxFileSize) bound what the
	// objects take once written.
	MaxResponseBytes int64
	// MaxLazyFetches bounds the fetches one command makes in a partial
	// clone (clone --filter=blob:none) for the blobs it left out, default
	// DefaultMaxLazyFetches. A checkout fetches the blobs it writes in
	// one; a command reading blob by blob (diff, show, blame) makes one a
	// blob. Past it the command fails with a *LazyFetchLimitError naming
	// this limit (EFBIG).
	MaxLazyFetches int
	// ReceiptDir is where calls leave receipts that make a repeated call
	// (a replay after a crash) return the first result (default
	// runtime.DefaultOutputDir: receipts live in each run's directory,
	// which the runtime deletes with the run). Pass the runtime's
	// OutputDir when it is not the default.
	ReceiptDir string
	// Now is the clock of commits and tags made without an explicit date
	// (default time.Now).
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	if o.Root == "" {
		o.Root = "/workspace"
	}
	if r, err := vfs.Clean(o.Root); err == nil {
		o.Root = r
	}
	if o.Identity.Name == "" && o.Identity.Email == "" {
		o.Identity = DefaultGitIdentity
	}
	if o.ReceiptDir == "" {
		o.ReceiptDir = runtime.DefaultOutputDir
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxLazyFetches <= 0 {
		o.MaxLazyFetches = DefaultMaxLazyFetches
	}
	return o
}

// The module's functions; mutating ones leave receipts.
var functions = []struct {
	name     string
	mutating bool
}{
	{"init", true}, {"status", false}, {"add", true}, {"rm", true}, {"commit", true}, {"log", false},
	{"diff", false}, {"show", false}, {"branch", true}, {"checkout", true}, {"reset", true},
	{"tag", true}, {"clone", true}, {"fetch", true}, {"push", true}, {"run", true},
}

// Git serves git commands over one workspace. It is safe for concurrent
// use; commands on one repository are serialised.
type Git struct {
	fs   *vfs.FS
	opts Options
	mu   sync.Mutex // one command at a time per module
}

// New returns git over the workspace f.
func New(f *vfs.FS, opts Options) *Git {
	return &Git{fs: f, opts: opts.withDefaults()}
}

// Module returns the module's functions over f, to register as
// [ModuleName]. See the package documentation for the functions.
func Module(f *vfs.FS, opts Options) runtime.Module {
	g := New(f, opts)
	return module(func(context.Context) (*Git, error) { return g, nil })
}

// LateModule returns the module for a workspace that is not open yet
// (nook.Open takes its modules before it opens the workspace), and bind,
// which hands it the workspace's filesystem once open. Calls made before
// bind wait for it.
func LateModule(opts Options) (mod runtime.Module, bind func(*vfs.FS)) {
	var (
		once  sync.Once
		ready = make(chan struct{})
		g     *Git
	)
	bind = func(f *vfs.FS) {
		once.Do(func() {
			g = New(f, opts)
			close(ready)
		})
	}
	return module(func(ctx context.Context) (*Git, error) {
		select {
		case <-ready:
			return g, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}), bind
}

func module(get func(context.Context) (*Git, error)) runtime.Module {
	m := runtime.Module{}
	for _, fn := range functions {
		name := fn.name
		var f runtime.Func = func(ctx context.Context, cc *runtime.CallContext, args []any) (any, error) {
			g, err := get(ctx)
			if err != nil {
				return nil, err
			}
			var a map[string]any
			switch {
			case len(args) == 0 || args[0] == nil:
				a = map[string]any{}
			case len(args) == 1:
				var ok bool
				if a, ok = args[0].(map[string]any); !ok {
					return nil, &runtime.CallError{Code: ErrGit, Message: name + " takes an options object, e.g. " + name + "({})"}
				}
			default:
				return nil, &runtime.CallError{Code: ErrGit, Message: name + " takes one argument, an options object"}
			}
			res, err := g.Call(ctx, cc, name, a)
			if err != nil {
				var ce *runtime.CallError
				if errors.As(err, &ce) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
					return nil, err
				}
				var le *ResponseLimitError
				if errors.As(err, &le) {
					return nil, &runtime.CallError{Code: string(vfs.EFBIG), Message: err.Error()}
				}
				return nil, &runtime.CallError{Code: ErrGit, Message: err.Error()}
			}
			return res, nil
		}
		if name == "clone" {
			// A clone interrupted half way leaves a directory a repeat
			// refuses: fail the replay instead.
			f = runtime.UnsafeToRepeat(f)
		}
		m[name] = f
	}
	return m
}

// Call runs the named command with its options (what code passes) and
// returns its JSON-compatible result. cc, when not nil, identifies the
// call for receipts; the CLI passes nil.
func (g *Git) Call(ctx context.Context, cc *runtime.CallContext, name string, a map[string]any) (any, error) {
	mutating, known := false, false
	for _, fn := range functions {
		if fn.name == name {
			mutating, known = fn.mutating, true
		}
	}
	if !known {
		return nil, fmt.Errorf("unknown git command %q", name)
	}
	if name == "run" {
		// A command line is as mutating as its command.
		mutating = runMutates(a)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	c := &call{ctx: ctx, g: g, a: a}
	if mutating && cc != nil {
		c.rc = g.receiptFor(cc, name, a)
		if v, ok := c.doneResult(); ok {
			return v, nil
		}
	}
	res, err := c.dispatch(name)
	if err != nil {
		return nil, err
	}
	// JSON-clean the result (the runtime would too) and record it.
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	c.rc.finish(b)
	return out, nil
}

// Command returns the git command a command line (without "git") names,
// after git's global options (-C DIR, -c NAME=VALUE and the flags), and
// its arguments; "" when it names none.
func Command(args []string) (name string, rest []string) {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		if (args[0] == "-C" || args[0] == "-c") && len(args) > 1 {
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return "", nil
	}
	return args[0], args[1:]
}

// IsBisectRun reports whether a command line (without "git") is git bisect
// run, which needs a shell to run its command (see [ExecRequest]).
func IsBisectRun(args []string) bool {
	name, rest := Command(args)
	return name == "bisect" && len(rest) > 0 && rest[0] == "run"
}

// runMutates reports whether a command line of run may change the
// repository (read-only ones leave no receipt).
func runMutates(a map[string]any) bool {
	raw, _ := a["args"].([]any)
	var args []string
	for _, x := range raw {
		s, _ := x.(string)
		args = append(args, s)
	}
	name, rest := Command(args)
	if name == "" {
		return false
	}
	switch name {
	case "status", "log", "diff", "show", "rev-parse", "help", "grep", "blame", "ls-files", "version",
		"merge-base", "cat-file", "ls-tree", "show-ref":
		return false
	case "stash":
		return !(len(rest) > 0 && (rest[0] == "list" || rest[0] == "show"))
	case "config":
		n := 0
		for _, s := range rest {
			if !strings.HasPrefix(s, "-") {
				n++
			}
		}
		return n >= 2 || slices.Contains(rest, "--unset")
	case "branch", "tag":
		// Listing only: no name and no flag that changes anything.
		for _, s := range rest {
			if s != "--list" && s != "-l" && s != "-a" && s != "-r" && s != "-v" && s != "--show-current" && s != "-n" {
				return true
			}
		}
		return false
	}
	return true
}

// call is one command being served.
type call struct {
	ctx context.Context
	g   *Git
	a   map[string]any
	rc  *receipt
}

func (c *call) dispatch(name string) (any, error) {
	switch name {
	case "init":
		return c.init()
	case "status":
		return c.status()
	case "add":
		return c.add()
	case "rm":
		return c.rm()
	case "commit":
		return c.commit()
	case "log":
		return c.log()
	case "diff":
		return c.diff()
	case "show":
		return c.show()
	case "branch":
		return c.branch()
	case "checkout":
		return c.checkout()
	case "reset":
		return c.reset()
	case "tag":
		return c.tag()
	case "clone":
		return c.clone()
	case "fetch":
		return c.fetch()
	case "push":
		return c.push()
	case "run":
		return c.run()
	}
	return nil, fmt.Errorf("unknown git command %q", name)
}

// Option accessors: code passes JSON, so numbers are float64.

func (c *call) str(k string) (string, error) {
	v, ok := c.a[k]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s must be a string", k)
	}
	return s, nil
}

func (c *call) flag(k string) (bool, error) {
	v, ok := c.a[k]
	if !ok || v == nil {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("%s must be a boolean", k)
	}
	return b, nil
}

func (c *call) num(k string) (int, error) {
	v, ok := c.a[k]
	if !ok || v == nil {
		return 0, nil
	}
	switch n := v.(type) {
	case float64:
		return int(n), nil
	case int:
		return n, nil
	case int64:
		return int(n), nil
	}
	return 0, fmt.Errorf("%s must be a number", k)
}

func (c *call) strs(k string) ([]string, error) {
	v, ok := c.a[k]
	if !ok || v == nil {
		return nil, nil
	}
	switch x := v.(type) {
	case string:
		return []string{x}, nil
	case []string:
		return x, nil
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%s must be an array of strings", k)
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s must be an array of strings", k)
}

// checkKeys refuses options the command does not know.
func (c *call) checkKeys(name string, known ...string) error {
	for k := range c.a {
		ok := k == "dir"
		for _, n := range known {
			ok = ok || k == n
		}
		if !ok {
			return fmt.Errorf("%s: unknown option %q (options: dir, %s)", name, k, strings.Join(known, ", "))
		}
	}
	return nil
}
