package host

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/nookdev/nook/runtime/internal/hostlink"
)

// Host is a run's only door out of its sandbox. The runtime creates one per
// run attempt and hands it to [Program.Run]; a backend never reaches the
// workspace, a host module, the network, the clock or randomness any other
// way. A live host performs each call; the journal wraps it to record calls
// and to answer them again on replay, which is why every request and result
// is plain JSON-compatible data.
//
// Call and Write may be used from several goroutines; the order in which a
// backend issues calls is the order they are numbered in.
type Host interface {
	// Call performs one call out of the sandbox and returns its result: a
	// JSON-compatible value (nil, bool, float64, string, []any,
	// map[string]any) in which []byte may stand for binary data. A failed
	// call returns a *CallError.
	Call(ctx context.Context, c *Call) (any, error)

	// Write appends p to the run's stdout or stderr. It fails with a
	// *LimitError once the run's output exceeds MaxOutputBytes; the
	// program must then stop.
	Write(stream Stream, p []byte) error

	// Now is the run's clock (Date.now, new Date, performance.now).
	Now() time.Time

	// Random fills p with the run's random bytes (Math.random,
	// crypto.getRandomValues, crypto.randomUUID).
	Random(p []byte)
}

// TimerJournal is implemented by a Host that records, and on replay
// dictates, when a program's timers fire relative to the completions of
// its host calls: timers race calls in real time, and a replay must take
// the same path. A backend with timers asks NextTimer before firing any:
// while it reports a recorded firing, the backend fires exactly that timer
// once it has delivered after completions, and no other; then (live) it
// fires timers as they fall due and reports each with TimerFired.
type TimerJournal interface {
	NextTimer() (id int64, after uint64, ok bool)
	TimerFired(id int64, after uint64)
}

// Stream names an output stream.
type Stream int

// The output streams.
const (
	Stdout Stream = 1
	Stderr Stream = 2
)

func (s Stream) String() string {
	if s == Stderr {
		return "stderr"
	}
	return "stdout"
}

// CallKind says which door a call goes through.
type CallKind string

// The kinds of calls a program makes.
const (
	// KindFS is a filesystem operation under the backend's root; Op is the
	// operation ("readFile", "writeFile", "stat", ...; see [FSOps]) and Args
	// a map of its arguments.
	KindFS CallKind = "fs"
	// KindModule calls a host-module function: Op is "ws:<module>/<func>"
	// and Args the []any of its arguments.
	KindModule CallKind = "module"
	// KindFetch is an HTTP request under the outbound policy: Op is
	// "fetch" and Args a map {url, method, headers, body}.
	KindFetch CallKind = "fetch"
	// KindExec starts a nested run on another backend (or the same one)
	// of the workspace and waits for its end: Op is the backend id ("shell",
	// "js", "wasm") and Args a map {source | file, args, env, cwd, stdin,
	// timeoutMs, maxBuffer}; the result is a map {code, status, stdout,
	// stderr, stdoutBytes, stderrBytes, id, error}. This is how
	// node:child_process runs a command line on the shell, and how the
	// shell's node runs a program on the JavaScript backend. See
	// [Limits.MaxExecDepth] and runtime/RATIONALE.md.
	KindExec CallKind = "exec"
)

// Call is one request a program makes of its host.
type Call struct {
	Kind CallKind
	Op   string
	Args any
	// Seq numbers the call in the order the program issued it, from 1.
	// A backend whose calls may reach the host out of issue order (calls
	// completed on goroutines) sets it on the goroutine that issues them;
	// zero lets the host number calls as they arrive. The journal records
	// and replays calls by this number, and a host-module call's CallID
	// derives from it.
	Seq int64
}

// CallError is a failed host call, as the sandboxed code sees it. Code is
// a POSIX-style code ("ENOENT", "EACCES") or a runtime code
// ("ERR_HOST_MODULE", "ERR_FETCH_DENIED"); Syscall and Path follow Node's
// conventions for filesystem errors.
type CallError struct {
	Code    string
	Message string // the full message, e.g. "ENOENT: no such file or directory, open '/workspace/a'"
	Syscall string // filesystem errors: "open", "mkdir", ...
	Path    string // filesystem errors: the path as the code gave it
	Dest    string // rename, symlink, copyFile: the second path
}

func (e *CallError) Error() string { return e.Message }

// Func is a host-module function. Its arguments arrive as JSON-compatible
// values (what the code passed, through a JSON round trip); its result must
// be JSON-compatible too. A returned error becomes an exception in the code,
// with the error's message.
type Func func(ctx context.Context, call *CallContext, args []any) (any, error)

// Module is a host module: functions that sandboxed code imports by name
// from "ws:<name>".
type Module map[string]Func

// CallContext describes one host-module call to the function serving it.
type CallContext struct {
	// RunID is the run making the call.
	RunID string
	// CallID identifies the call within its run, and stays the same if the
	// run is re-executed; pass it on as an idempotency key.
	CallID string

	op string // "ws:<module>/<func>"

	// Set by a journaling host (replay policy).
	beginUnsafe func(ctx context.Context) error
	interrupt   func(payload any) (any, error)
	interrupted bool
}

// Interrupt pauses the run until someone answers this call with
// Runtime.Respond, and returns the answer: the run releases its sandbox
// (it stays running, waiting, and the wait counts neither toward its
// timeout nor against a restart of the process), then replays up to this
// call once answered, calling the function again with the same CallID;
// this time Interrupt returns the answer at once. So whatever the function
// does before Interrupt must be safe to repeat. Only a run whose interrupt
// policy is replay can wait, and a call can interrupt once.
func (c *CallContext) Interrupt(payload any) (any, error) {
	if c.interrupted {
		return nil, errors.New("a call can interrupt only once")
	}
	c.interrupted = true
	if c.interrupt == nil {
		return nil, errors.New("Interrupt needs a run whose interrupt policy is replay")
	}
	return c.interrupt(payload)
}

// UnsafeToRepeat marks f as a function that must not run twice for one
// call: if the run is interrupted while f runs, a replay fails the run
// instead of calling f again. (Functions that can, should rather pass
// CallContext.CallID on as an idempotency key.)
func UnsafeToRepeat(f Func) Func {
	return func(ctx context.Context, c *CallContext, args []any) (any, error) {
		if c.beginUnsafe != nil {
			if err := c.beginUnsafe(ctx); err != nil {
				return nil, err
			}
		}
		return f(ctx, c, args)
	}
}

// Outbound is the policy that lets sandboxed code use fetch. Without one
// (the default) fetch fails with a clear error.
type Outbound struct {
	// Transport carries every request (default http.DefaultTransport).
	Transport http.RoundTripper
	// AllowHosts, when not empty, lists the hosts code may reach: exact
	// names ("api.example.com"), "*.example.com" for subdomains, or
	// "host:port". Others fail with ERR_FETCH_DENIED.
	AllowHosts []string
	// MaxResponseBytes bounds a response body (default
	// DefaultMaxResponseBytes); a longer body fails the fetch.
	MaxResponseBytes int64
	// Timeout bounds one request (default: the run's remaining time).
	Timeout time.Duration
}

// DefaultMaxResponseBytes is the default bound on one fetch response body.
const DefaultMaxResponseBytes = 4 << 20

func init() {
	hostlink.Hook = func(cc any, beginUnsafe func(ctx context.Context) error, interrupt func(payload any) (any, error)) {
		c := cc.(*CallContext)
		c.beginUnsafe, c.interrupt = beginUnsafe, interrupt
	}
	hostlink.Op = func(cc any) string { return cc.(*CallContext).op }
}
