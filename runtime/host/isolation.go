package host

// Isolator runs programs outside the runtime's process: the process
// isolation tier (package github.com/nookdev/nook/runtime/worker provides
// one). Set it as Options.Isolation; nil runs every program in the
// runtime's own process (the in-process tier).
//
// The runtime prepares a program in its own process (Backend.Prepare may
// read the workspace), then asks the isolator for the program to run in its
// place. The returned program's Run is called with the run's host, exactly
// as the original's would be: the journal, the database, the host modules
// and the network stay in the runtime's process, so replay, approvals and
// recovery work the same in both tiers.
type Isolator interface {
	// Isolate returns the program that runs prog (prepared by backend for
	// req) in another process. It reports false when prog cannot be run
	// elsewhere; the runtime then runs prog in process.
	Isolate(backend Backend, prog Program, req *Request) (Program, bool)
}

// OwnClock is implemented by a run's Host whose clock and randomness are
// any process's own (time.Now and crypto/rand): an isolator's sandbox
// process may read them itself instead of asking the host. The host of a
// replay-policy run journals both, and does not implement it.
type OwnClock interface {
	Host
	OwnClock()
}

// SandboxCrashError ends an attempt whose sandbox process died before the
// program ended: a Go fatal error (a stack overflow), a signal from outside
// the runtime. A program of the process tier returns it as its Exit.Err.
// Under the restart and replay policies it is an interruption like a crash
// of the runtime's own process, and the run resumes at once in a new
// attempt (MaxAttempts applies); under the fail policy the run fails with
// its message. A sandbox process killed for exceeding a limit is not a
// crash: its run fails with a *LimitError.
type SandboxCrashError struct {
	// Detail is the first line of the process's fatal error, or how it
	// ended ("signal: killed").
	Detail string
}

func (e *SandboxCrashError) Error() string { return "the sandbox process crashed: " + e.Detail }
