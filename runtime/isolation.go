package runtime

import (
	"context"
	"errors"
	"time"

	"github.com/nookdev/nook/journal"
)

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

type ownClockHost struct{ Host }

func (ownClockHost) OwnClock() {}

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

func isCrash(err error) bool {
	var c *SandboxCrashError
	return errors.As(err, &c)
}

// crashed reports whether exit ended an attempt by its sandbox process's
// death, which the run's policy turns into an interruption.
func (x *run) crashed(exit Exit) bool {
	return isCrash(exit.Err) && (x.policy == PolicyRestart || x.policy == PolicyReplay)
}

// interrupted ends an attempt whose sandbox process died, as a crash of
// this process would have: what it printed and journaled is stored, and
// the run's next attempt starts here (counted against MaxAttempts). The
// run stays reserved in the runtime until the next attempt takes its place.
func (x *run) interrupted() {
	r := x.rt
	evs, prog := x.out.close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var ticks []journal.Tick
	if x.jh != nil {
		ticks = x.jh.takeTicks()
	}
	r.store.Append(ctx, x.id, evs, prog, ticks)
	// On failure (the database closed under the run) the record stays
	// running and the next runtime reaps it as interrupted.
	if rec, err := r.store.Get(ctx, x.id); err == nil {
		r.resumeRun(ctx, rec, nil, x)
	}
	r.mu.Lock()
	if r.runs[x.id] == x {
		delete(r.runs, x.id)
	}
	r.mu.Unlock()
	x.wakeReaders()
}
