package wasm

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/vfs"
)

// Options configure a WebAssembly backend. Zero fields take defaults.
type Options struct {
	// ID selects the backend in Exec (default "wasm").
	ID string
	// Description is what a model reads about the backend (default: a
	// description of what a guest is and what it can reach).
	Description string
	// Root is the workspace directory the guest may reach (default
	// "/workspace"); Access says whether it may change it.
	Root   string
	Access host.Access
	// Mount is where the guest sees Root (default: Root itself, so guest
	// paths and workspace paths agree). "/" makes Root the guest's whole
	// filesystem, as `nook exec --backend wasm` does.
	Mount string
	// DefaultTimeout applies when a caller gives none (default 60 s); a
	// caller's timeout is clamped to MaxTimeout (default 30 min).
	DefaultTimeout time.Duration
	MaxTimeout     time.Duration
	// CacheDir, when set, is a host directory where compiled modules are
	// kept across processes (wazero's compilation cache). Without it
	// modules are cached in memory only.
	CacheDir string
	// MaxModuleBytes bounds the size of a module (default
	// DefaultMaxModuleBytes).
	MaxModuleBytes int64
	// MaxMemoryPages bounds a guest's linear memory in 64 KiB pages
	// (default: the run's Limits.MaxMemoryBytes, 256 MiB by default; at
	// most 65536).
	MaxMemoryPages uint32
	// MaxCompiled bounds the compiled modules kept in memory (default 32).
	MaxCompiled int
	// Interrupt chooses how a running guest is stopped (default
	// InterruptMetered); see RATIONALE.md.
	Interrupt Interrupt
}

// Interrupt is how a backend stops a guest that computes without calling
// its host.
type Interrupt int

const (
	// InterruptMetered rewrites each module so that every loop iteration
	// and function entry decrements a counter, and every so many steps
	// leaves native code for Go (a safepoint for the garbage collector)
	// and checks whether the run must stop; bulk memory and table
	// instructions are charged by their size. It costs CPU-bound guests
	// well under 2x (see RATIONALE.md).
	InterruptMetered Interrupt = iota
	// InterruptChecked uses wazero's WithCloseOnContextDone (bulk
	// instructions and table limits are rewritten as above): every loop
	// iteration calls into Go. It is safe for any module and 4-20 times
	// slower for CPU-bound guests.
	InterruptChecked
)

// DefaultMaxModuleBytes is the default bound on a module's size.
const DefaultMaxModuleBytes = 64 << 20

// wasmMagic starts every WebAssembly binary.
const wasmMagic = "\x00asm"

// Backend runs WebAssembly guests with wazero. It implements
// runtime.Backend; it is safe for concurrent use, and all runs of one
// Backend share its compiled modules.
type Backend struct {
	opts  Options
	cache *engine
}

var _ host.Backend = (*Backend)(nil)

// New returns a WebAssembly backend. The wazero runtimes it uses are
// created on first use and shared with every other backend of the process.
func New(opts Options) *Backend {
	if opts.ID == "" {
		opts.ID = "wasm"
	}
	if opts.Root == "" {
		opts.Root = "/workspace"
	}
	opts.Root = path.Clean("/" + opts.Root)
	if opts.Mount == "" {
		opts.Mount = opts.Root
	}
	opts.Mount = path.Clean("/" + opts.Mount)
	if opts.DefaultTimeout <= 0 {
		opts.DefaultTimeout = host.DefaultTimeout
	}
	if opts.MaxTimeout <= 0 {
		opts.MaxTimeout = host.DefaultMaxTimeout
	}
	if opts.DefaultTimeout > opts.MaxTimeout {
		opts.DefaultTimeout = opts.MaxTimeout
	}
	if opts.MaxModuleBytes <= 0 {
		opts.MaxModuleBytes = DefaultMaxModuleBytes
	}
	if opts.MaxMemoryPages > 65536 {
		opts.MaxMemoryPages = 65536
	}
	if opts.MaxCompiled <= 0 {
		opts.MaxCompiled = 32
	}
	if opts.Description == "" {
		opts.Description = describe(opts)
	}
	return &Backend{opts: opts, cache: newEngine(opts)}
}

func describe(o Options) string {
	return fmt.Sprintf("A WebAssembly module for WASI preview1 (Go built with GOOS=wasip1 GOARCH=wasm, Rust "+
		"wasm32-wasip1, C with wasi-libc, Zig, AssemblyScript): the source is the module's bytes or the "+
		"workspace path of a .wasm file. Arguments, environment and stdin are passed as to a process; "+
		"stdout and stderr are the run's output and the exit code is the one passed to proc_exit. "+
		"The guest's filesystem is the workspace directory %s, seen at %s (%s); nothing else of the "+
		"host is reachable. Host modules are reached through the import module \"nook\" (call).",
		o.Root, o.Mount, o.Access)
}

// Info describes the backend.
func (b *Backend) Info() host.BackendInfo {
	return host.BackendInfo{
		ID:             b.opts.ID,
		Description:    b.opts.Description,
		Callable:       false,
		Root:           b.opts.Root,
		Access:         b.opts.Access,
		DefaultTimeout: b.opts.DefaultTimeout,
		MaxTimeout:     b.opts.MaxTimeout,
		MaxSourceBytes: b.opts.MaxModuleBytes,
	}
}

// Close releases the backend's compiled modules. The wazero runtimes are
// shared by the process's backends and stay.
func (b *Backend) Close(ctx context.Context) error { return b.cache.close(ctx) }

// Prepare reads the module (from req.Source, or from the workspace file
// it names), compiles it or takes it from the cache, and checks that it is
// a WASI command. A module that is too large, invalid, or needs imports the
// backend does not provide fails here, before the run exists.
func (b *Backend) Prepare(ctx context.Context, fsys *vfs.FS, req *host.Request) (host.Program, error) {
	r := *req
	r.Limits = r.Limits.WithDefaults()
	if r.Cwd == "" {
		r.Cwd = b.opts.Root
	}
	r.Cwd = path.Clean(r.Cwd)
	opts, err := b.runOptions(ctx, fsys, &r)
	if err != nil {
		return nil, err
	}
	if !within(r.Cwd, opts.Root) {
		return nil, fmt.Errorf("the working directory %s is outside %s", r.Cwd, opts.Root)
	}
	pages := b.pages(r.Limits)
	bin, name, chash, cm, err := b.module(ctx, fsys, &r, pages, opts)
	if err != nil {
		return nil, err
	}
	if cm == nil {
		if cm, err = b.cache.compile(ctx, bin, pages); err != nil {
			return nil, err
		}
		if chash != "" {
			b.cache.remember(chash, cm)
		}
	}
	return &program{b: b, opts: opts, mod: cm, req: &r, argv0: name}, nil
}

// RootEnv is the environment variable that gives one run its own root: a
// directory under the backend's Root that the guest sees at Mount instead
// of Root (`nook exec --backend wasm --root DIR`). It is taken out of the
// guest's environment. As a variable of the run's request it is recorded
// with the run, so a restarted or replayed run sees the same files.
//
// The run's root is a view, not a wall: the host confines the guest's
// calls to the backend's Root, so a symlink in the run's root may lead
// elsewhere under Root (never outside it).
const RootEnv = "NOOK_WASM_ROOT"

// runOptions returns the options of one run: the backend's, with the run's
// own root when its request sets RootEnv (r.Env then loses it, and a
// working directory left at the backend's root moves to the run's).
func (b *Backend) runOptions(ctx context.Context, fsys *vfs.FS, r *host.Request) (Options, error) {
	opts := b.opts
	root, ok := r.Env[RootEnv]
	if !ok {
		return opts, nil
	}
	env := make(map[string]string, len(r.Env)-1)
	for k, v := range r.Env {
		if k != RootEnv {
			env[k] = v
		}
	}
	r.Env = env
	if !strings.HasPrefix(root, "/") {
		root = path.Join(b.opts.Root, root)
	}
	root = path.Clean(root)
	if !within(root, b.opts.Root) {
		return opts, fmt.Errorf("%s=%s: outside the backend's root %s", RootEnv, root, b.opts.Root)
	}
	real, err := fsys.ResolveBeneath(ctx, b.opts.Root, root, true)
	if err != nil {
		return opts, fmt.Errorf("%s=%s: %w", RootEnv, root, err)
	}
	fi, err := fsys.Stat(ctx, real)
	if err != nil {
		return opts, fmt.Errorf("%s=%s: %w", RootEnv, root, err)
	}
	if fi.Kind != vfs.TypeDir {
		return opts, fmt.Errorf("%s=%s: not a directory", RootEnv, root)
	}
	if r.Cwd == b.opts.Root {
		r.Cwd = real
	}
	opts.Root = real
	return opts, nil
}

// pages is the memory limit of a run in pages.
func (b *Backend) pages(l host.Limits) uint32 {
	if b.opts.MaxMemoryPages > 0 {
		return b.opts.MaxMemoryPages
	}
	p := l.MaxMemoryBytes / 65536
	if p < 1 {
		p = 1
	}
	if p > 65536 {
		p = 65536
	}
	return uint32(p)
}

// module returns the module's bytes, its name (argv[0]) and, for a
// workspace file, its content hash; or, when the file's content hash names
// a module compiled before, that module without reading the file.
func (b *Backend) module(ctx context.Context, fsys *vfs.FS, r *host.Request, pages uint32, opts Options) ([]byte, string, string, *compiled, error) {
	max := b.opts.MaxModuleBytes
	src := r.Source
	if strings.HasPrefix(src, wasmMagic) {
		if int64(len(src)) > max {
			return nil, "", "", nil, &host.LimitError{Limit: "MaxModuleBytes", Max: max,
				What: fmt.Sprintf("module of %d bytes", len(src))}
		}
		sum := sha256.Sum256([]byte(src))
		return []byte(src), fmt.Sprintf("%x.wasm", sum[:6]), "", nil, nil
	}
	p := strings.TrimSpace(src)
	if p == "" {
		return nil, "", "", nil, fmt.Errorf("the source is neither a WebAssembly module (it does not start with \\0asm) nor the path of a .wasm file")
	}
	if strings.ContainsAny(p, "\n\x00") || len(p) > vfs.MaxPathLength {
		return nil, "", "", nil, fmt.Errorf("the source is neither a WebAssembly module (it does not start with \\0asm) nor the path of a .wasm file")
	}
	// A path may be given in guest terms (under Mount) or workspace terms
	// (under Root), or relative to the working directory.
	var abs string
	switch {
	case !strings.HasPrefix(p, "/"):
		abs = path.Join(r.Cwd, p)
	case within(path.Clean(p), opts.Root):
		abs = path.Clean(p)
	case within(path.Clean(p), opts.Mount):
		abs = path.Join(opts.Root, strings.TrimPrefix(path.Clean(p), opts.Mount))
	default:
		abs = path.Clean(p)
	}
	if !within(abs, opts.Root) {
		return nil, "", "", nil, fmt.Errorf("module %s: outside the backend's root %s", p, opts.Root)
	}
	real, err := fsys.ResolveBeneath(ctx, opts.Root, abs, true)
	if err != nil {
		return nil, "", "", nil, fmt.Errorf("module %s: %w", p, err)
	}
	fi, err := fsys.Stat(ctx, real)
	if err != nil {
		return nil, "", "", nil, fmt.Errorf("module %s: %w", p, err)
	}
	if fi.Kind != vfs.TypeFile {
		return nil, "", "", nil, fmt.Errorf("module %s: not a file", p)
	}
	if fi.Bytes > max {
		return nil, "", "", nil, &host.LimitError{Limit: "MaxModuleBytes", Max: max,
			What: fmt.Sprintf("module %s of %d bytes", p, fi.Bytes)}
	}
	chash, _ := fsys.ContentHash(ctx, real)
	if chash != "" {
		if cm := b.cache.known(chash, pages); cm != nil {
			return nil, guestPath(opts, real), chash, cm, nil
		}
	}
	bin, err := fsys.ReadRange(ctx, real, 0, max+1)
	if err != nil {
		return nil, "", "", nil, fmt.Errorf("module %s: %w", p, err)
	}
	if int64(len(bin)) > max {
		return nil, "", "", nil, &host.LimitError{Limit: "MaxModuleBytes", Max: max,
			What: fmt.Sprintf("module %s of %d bytes", p, len(bin))}
	}
	if !strings.HasPrefix(string(bin[:min(len(bin), 4)]), wasmMagic) {
		return nil, "", "", nil, fmt.Errorf("module %s: not a WebAssembly binary (no \\0asm header)", p)
	}
	return bin, guestPath(opts, real), chash, nil, nil
}

// within reports whether the clean path p is dir or below it.
func within(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// guestPath turns a workspace path under Root into the path the guest sees.
func guestPath(o Options, p string) string {
	if !within(p, o.Root) {
		return p
	}
	rest := strings.TrimPrefix(p, o.Root)
	if o.Mount == "/" {
		if rest == "" {
			return "/"
		}
		return rest
	}
	return o.Mount + rest
}

// workspacePath turns a guest absolute path under Mount into a workspace
// path under Root; other paths are returned as they are.
func workspacePath(o Options, p string) string {
	if !within(p, o.Mount) {
		return p
	}
	rest := strings.TrimPrefix(p, o.Mount)
	if o.Mount == "/" {
		rest = p
		if rest == "/" {
			rest = ""
		}
	}
	return o.Root + rest
}
