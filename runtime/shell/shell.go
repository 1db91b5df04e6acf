package shell

import (
	"context"
	"strings"
	"time"

	"github.com/nookdev/nook/internal/mvsh/syntax"

	"github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/runtime/shell/internal/coreutils"
	"github.com/nookdev/nook/vfs"
)

// ID is the backend's id.
const ID = "shell"

// Options configure the backend. Zero values take the defaults.
type Options struct {
	// Root is the directory scripts may reach (default "/workspace").
	Root string
	// ReadOnly makes every change fail with "Read-only file system".
	ReadOnly bool
	// DefaultTimeout (default 60s) and MaxTimeout (default 30 min) bound a
	// run's time.
	DefaultTimeout time.Duration
	MaxTimeout     time.Duration
	// MaxLoopIterations bounds the iterations of all loops of one run
	// together (default 1,000,000).
	MaxLoopIterations int64
	// MaxFunctionDepth bounds nested shell function calls (default 1,000,
	// and at most the run's MaxStackDepth).
	MaxFunctionDepth int
	// MaxArgs bounds the words of one command after expansion, globs
	// included (default 100,000).
	MaxArgs int
}

// The defaults of Options.
const (
	DefaultMaxLoopIterations = 1_000_000
	DefaultMaxFunctionDepth  = 1_000
	DefaultMaxArgs           = 100_000
)

// Backend runs shell scripts. Create it with New.
type Backend struct {
	opts Options
	info host.BackendInfo
}

// New returns the shell backend.
func New(o Options) *Backend {
	if o.Root == "" {
		o.Root = "/workspace"
	}
	if o.DefaultTimeout <= 0 {
		o.DefaultTimeout = host.DefaultTimeout
	}
	if o.MaxTimeout <= 0 {
		o.MaxTimeout = host.DefaultMaxTimeout
	}
	if o.MaxLoopIterations <= 0 {
		o.MaxLoopIterations = DefaultMaxLoopIterations
	}
	if o.MaxFunctionDepth <= 0 {
		o.MaxFunctionDepth = DefaultMaxFunctionDepth
	}
	if o.MaxArgs <= 0 {
		o.MaxArgs = DefaultMaxArgs
	}
	access := host.ReadWrite
	if o.ReadOnly {
		access = host.ReadOnly
	}
	return &Backend{opts: o, info: host.BackendInfo{
		ID:             ID,
		Description:    description(o.Root),
		Callable:       false,
		Root:           o.Root,
		Access:         access,
		DefaultTimeout: o.DefaultTimeout,
		MaxTimeout:     o.MaxTimeout,
	}}
}

func description(root string) string {
	return "A bash-compatible shell over the workspace files under " + root +
		" (the working directory and $HOME). Pipes, redirections, here-docs, functions, arrays, " +
		"arithmetic, [[ ]], globs and loops work as in bash. Commands are built in and act only on workspace files: " +
		strings.Join(coreutils.Names(), " ") +
		". awk is POSIX awk with gawk's common extensions (print | \"cmd\" and \"cmd\" | getline run these built-in commands); " +
		"diff writes normal or unified (-u) output and compares directories (-r); tar creates, lists and extracts " +
		"plain or gzip (-z) archives; gzip/gunzip/zcat compress files; zip/unzip, patch (unified diffs), bc (arbitrary precision). " +
		"curl and wget reach the network only under the workspace's outbound policy (without one the network is off). " +
		"git runs git's command lines (commit, merge, rebase, stash, log, diff, ...) over the workspace when the embedder registers the ws:git host module. " +
		"timeout N CMD stops CMD and all it started. " +
		"node FILE, node -e CODE, node -p EXPR, tsx FILE.ts and npx tsx FILE run JavaScript/TypeScript on the js backend (Node " + coreutils.NodeVersion + " surface), " +
		"and wasm FILE.wasm or ./FILE.wasm runs WebAssembly (WASI) on the wasm backend, each as a nested run: its stdin is read to the end first, " +
		"its output arrives when it ends; node reads its stdin only when the program uses it. " +
		"sqlite3 DB.sqlite 'SQL' (or SQL and dot commands on stdin) runs SQLite on a workspace database file, as the sqlite3 CLI: " +
		"-header -csv -json -line -column -box -markdown -separator -cmd, .tables .schema .dump .import .mode .headers .read; " +
		"the file is read whole (at most MaxAllocBytes) and written back once when changed. There is no python, npm registry or compiler. " +
		"no process substitution <(...). " +
		"The exit code is the script's status; stdout and stderr are returned, with the list of files the script changed."
}

// Info describes the backend.
func (b *Backend) Info() host.BackendInfo { return b.info }

// Prepare parses the script and refuses what cannot run in the sandbox
// (process substitution, coprocesses). It does not touch fsys.
func (b *Backend) Prepare(ctx context.Context, fsys *vfs.FS, req *host.Request) (host.Program, error) {
	if err := checkNesting(req.Source, req.Limits.WithDefaults().MaxNestingDepth); err != nil {
		return nil, err
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(req.Source), "")
	if err != nil {
		if file = beforeSyntaxError(req.Source, "", err); file == nil {
			return nil, &syntaxError{err}
		}
	}
	if err := check(file); err != nil {
		return nil, err
	}
	// $0 of the script is "bash", as for bash reading a script from its
	// standard input or -c (the interpreter's default is "gosh").
	file.Name = "bash"
	funcs := rewrite(file)
	return &program{b: b, req: req, file: file, funcs: funcs}, nil
}

// syntaxError is a script that does not parse. As a nested run (bash -c,
// child_process) it exits 2, as sh does (see runtime.Backend.Prepare).
type syntaxError struct{ err error }

func (e *syntaxError) Error() string { return "shell syntax error: " + e.err.Error() }
func (e *syntaxError) Unwrap() error { return e.err }
func (e *syntaxError) ExitCode() int { return 2 }

// NodeVersion is what the shell's `node --version` prints: the Node
// version whose surface the JavaScript backend follows.
const NodeVersion = coreutils.NodeVersion
