package host

import (
	"context"
	"encoding/json"
	"time"

	"github.com/nookdev/nook/vfs"
)

// Backend runs sources of one kind (JavaScript modules, WebAssembly guests,
// shell scripts). A backend holds configuration only; every run gets its own
// [Program] and [Host].
type Backend interface {
	// Info describes the backend. It must return the same value every time.
	Info() BackendInfo

	// Prepare checks and compiles req before the run exists: syntax errors,
	// unresolvable imports and limits on the source are reported here, and
	// Exec then fails without creating a record. Prepare may read module
	// sources from fsys (confined to the backend's root); it must not change
	// anything. When a nested run (KindExec) does not prepare, its exit
	// code is 1, or what the error's ExitCode() int method says (a shell
	// syntax error: 2).
	Prepare(ctx context.Context, fsys *vfs.FS, req *Request) (Program, error)
}

// Program is one prepared run. Run is called at most once per attempt, in
// a goroutine of its own.
type Program interface {
	// Run executes the program. Everything it does outside its sandbox
	// goes through host. It returns when the program ends or ctx is done;
	// when ctx is done it must return promptly (the runtime then decides
	// whether the run was cancelled or timed out, from the context's cause).
	Run(ctx context.Context, host Host) Exit
}

// BackendInfo describes a backend to the runtime and to models.
type BackendInfo struct {
	// ID selects the backend in Exec ("js", "wasm", "sh").
	ID string
	// Description is what a model reads to pick a backend: the language,
	// what code can import or call, and how it returns a value.
	Description string
	// Callable reports whether the backend accepts Input and returns a
	// Value (a JavaScript module's default export does; a shell does not).
	Callable bool
	// Root is the directory of the workspace that code may reach
	// (default "/workspace"); Access says whether it may change it.
	Root   string
	Access Access
	// DefaultTimeout applies when the caller gives none; a caller's
	// timeout is clamped to MaxTimeout.
	DefaultTimeout time.Duration
	MaxTimeout     time.Duration
	// MaxSourceBytes, when set, replaces Limits.MaxSourceBytes as the
	// bound Exec puts on this backend's source (a compiled WebAssembly
	// module is bigger than any script); the backend checks it too.
	MaxSourceBytes int64
}

// Access is what sandboxed code may do under its backend's root.
type Access int

const (
	// ReadWrite lets code read and change files under the root.
	ReadWrite Access = iota
	// ReadOnly lets code read files; every change fails with EROFS.
	ReadOnly
)

func (a Access) String() string {
	if a == ReadOnly {
		return "read"
	}
	return "read-write"
}

// Request is one run as the backend sees it: validated, with defaults
// applied and paths canonical.
type Request struct {
	// ID is the run's id.
	ID string
	// Source is the program text (a module, a script).
	Source string
	// Cwd is the working directory: an absolute, clean path under the
	// backend's root. Relative imports and relative paths resolve from it.
	Cwd string
	// Input is the JSON-compatible input of a callable backend (nil when
	// none was given).
	Input json.RawMessage
	// Env is the environment of the run, exactly as given (nothing is
	// inherited from the host process).
	Env map[string]string
	// Entry is the workspace path the source was read from when the run
	// came from a file (a nested run of "node x.js"); empty for inline
	// source. A backend names its entry after it: JavaScript resolves
	// relative imports from its directory and shows it as process.argv[1],
	// the shell as $0, WebAssembly as argv[0].
	Entry string
	// Args are extra program arguments (process.argv after the entry).
	Args []string
	// Stdin is the run's standard input, read to the end.
	Stdin []byte
	// Modules lists the host modules code may import, by name ("ws:orders")
	// with the names of their functions.
	Modules map[string][]string
	// Fetch reports whether an outbound policy exists; without one, fetch
	// fails with a clear error.
	Fetch bool
	// Limits are the run's limits, defaults applied.
	Limits Limits
	// Tree names the tree of runs this run belongs to: a top run gets a
	// key of its own, unique in the process, and every run nested in it
	// (KindExec, at any depth) inherits it. The runs of one tree share
	// one budget of MaxMemoryBytes, and in the process tier of
	// MaxCPUTime: a nested run's usage counts against its parent's.
	Tree string
	// VirtualTime says the run's waits are virtual (Options.VirtualTime):
	// a backend ends a timer, sleep or poll at once when the program has
	// nothing else pending, and keeps the time the guest sees moving
	// forward past the wait.
	VirtualTime bool
}

// Exit is how a program ended.
type Exit struct {
	// Code is the exit code: 0 for success. A program that threw or
	// failed returns 1 (or the code it passed to exit).
	Code int
	// Value is the JSON encoding of a callable program's result (the
	// awaited return value of a module's default export); nil when there is
	// none.
	Value json.RawMessage
	// Err says why the program failed, when it did. The backend has
	// already written a readable message to stderr; Err keeps the cause for
	// callers (a *LimitError when a limit stopped the run).
	Err error
	// Changes reports the files the program changed, for backends that
	// track them (the shell does); nil otherwise. It is kept whatever the
	// exit status.
	Changes *Changes
}

// Changes lists the paths a run changed, by kind, each list sorted.
type Changes struct {
	Created     []string `json:"created"`
	Updated     []string `json:"updated"`
	Deleted     []string `json:"deleted"`
	DirsCreated []string `json:"dirsCreated"`
	DirsDeleted []string `json:"dirsDeleted"`
}

// Snapshotter is a Program that can be saved, so that a replay runs exactly
// the program its first attempt ran, even if the workspace files it was
// built from (a module's imports) changed since.
type Snapshotter interface {
	Snapshot() []byte
}

// Restorer is a Backend that rebuilds a Program from a Snapshotter's
// snapshot. A backend without it prepares the source again.
type Restorer interface {
	Restore(ctx context.Context, snapshot []byte, req *Request) (Program, error)
}
