package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nookdev/nook/journal"
)

// Status is how a run ended, the same for every backend.
type Status string

// The statuses of a run.
const (
	StatusRunning   Status = journal.Running
	StatusCompleted Status = journal.Completed // exit code 0
	StatusFailed    Status = journal.Failed    // any other exit, or an error
	StatusCancelled Status = journal.Cancelled // killed, or the runtime closed (exit code 130)
	StatusTimedOut  Status = journal.TimedOut  // the timeout expired (exit code 124)
)

// Exit codes the runtime gives runs it stops.
const (
	ExitCancelled = 130
	ExitTimedOut  = 124
)

// Causes of a run's context ending.
var (
	errKilled  = errors.New("killed")
	errClosed  = errors.New("runtime closed")
	errTimeout = errors.New("timed out")
)

// run is a run executing in this process.
type run struct {
	rt          *Runtime
	id          string
	backend     string
	info        BackendInfo
	encoding    string
	limits      Limits
	created     time.Time
	timeout     time.Duration // what is left of the run's timeout for this attempt
	fullTimeout time.Duration // the run's timeout
	policy      Policy
	seed        []byte             // the run's random seed (replay policy)
	timers      []TimerFiring      // the timer firings dictated to the run (ExecOptions.Timers)
	replay      *journal.Recording // what earlier attempts journaled (replay policy)
	resumed     *resumeState       // where this attempt resumes (nil on the first)
	release     func()             // called once the attempt ends (Recover's slot)
	depth       int                // how deeply the run is nested (0: started by Exec)
	attempt     int                // the attempt number once resumed (0 on the first)
	tree        string             // Request.Tree: the budget it shares with its tree
	checkpoint  bool               // take AfterCheckpoint at the end (ExecOptions.Checkpoint)

	ctx    context.Context
	cancel context.CancelCauseFunc
	out    *output
	jh     *journaledHost
	// observed is called with the attempt's end (Options.Observer).
	observed func(RunEnd)

	// notify is closed (and replaced) whenever events are stored or the
	// run finishes; finished is set once its record is final.
	mu       sync.Mutex
	notify   chan struct{}
	finished bool
}

// start runs prog in a goroutine.
//
// It reports false, starting nothing, when the runtime closed meanwhile;
// the run's context and its place in the runtime's wait group are set up
// under the runtime's lock, so Close either sees the run cancellable or
// keeps it from starting.
//
// parent is the context of the caller that starts the attempt; only its
// values reach the run, through Options.Observer (the trace it is part of).
func (x *run) start(parent context.Context, prog Program, req *Request, timeout time.Duration) bool {
	r := x.rt
	x.timeout = timeout
	if x.fullTimeout == 0 {
		x.fullTimeout = timeout
	}
	isolated := false
	if iso := r.opts.Isolation; iso != nil {
		if p, ok := iso.Isolate(r.backends[x.backend], prog, req); ok {
			prog, isolated = p, true
		}
	}
	base, observed := x.observeRun(parent, isolated)
	base = x.withStages(base)
	ctx, cancel := context.WithCancelCause(base)
	ctx, stopTimer := context.WithTimeoutCause(ctx, timeout, errTimeout)
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		stopTimer()
		cancel(errClosed)
		if observed != nil {
			observed(RunEnd{Status: StatusCancelled, ExitCode: ExitCancelled})
		}
		return false
	}
	x.observed = observed
	x.ctx, x.cancel = ctx, cancel
	r.wg.Add(1)
	r.mu.Unlock()
	x.out = newOutput(x, x.resumed)
	cfg := HostConfig{
		FS: r.fs, Root: x.info.Root, Access: x.info.Access, RunID: x.id,
		Modules: r.opts.Modules, Outbound: r.opts.Outbound, Limits: x.limits,
		Output: x.out.write, Now: r.opts.GuestClock, Exec: x.spawn, Observe: r.observeCall(x.id),
	}
	var host Host
	if x.policy == PolicyReplay {
		if x.replay == nil {
			x.replay = &journal.Recording{}
		}
		cfg.Random = seededRandom(x.seed)
		jh := &journaledHost{x: x, rec: x.replay}
		cfg.Decorate = jh.decorate
		jh.live = NewHost(cfg)
		x.jh, host = jh, jh
	} else {
		if len(x.seed) > 0 {
			cfg.Random = seededRandom(x.seed)
		}
		host = NewHost(cfg)
		// The worker may read its own clock and randomness only when
		// they are any process's: a GuestClock or a seed is the
		// parent's to answer, whatever the policy; dictated timers are
		// the parent's too.
		if len(x.timers) > 0 {
			host = &dictatedTimers{Host: host, x: x, timers: x.timers}
		} else if isolated && r.opts.GuestClock == nil && len(x.seed) == 0 {
			host = ownClockHost{host}
		}
	}
	go func() {
		defer r.wg.Done()
		defer cancel(nil)
		defer stopTimer()
		if x.release != nil {
			defer x.release()
		}
		exit := runProgram(ctx, prog, host)
		x.finish(ctx, exit)
	}()
	return true
}

// runProgram runs prog, turning a panic into a failed exit so a broken
// backend cannot take the process down.
func runProgram(ctx context.Context, prog Program, host Host) (exit Exit) {
	defer func() {
		if p := recover(); p != nil {
			msg := fmt.Sprintf("internal error: the backend panicked: %v", p)
			host.Write(Stderr, []byte(msg+"\n"))
			exit = Exit{Code: 1, Err: errors.New(msg)}
		}
	}()
	return prog.Run(ctx, host)
}

// exitData is the JSON of an exit event.
type exitData struct {
	Status Status          `json:"status"`
	Code   int             `json:"code"`
	Value  json.RawMessage `json:"value,omitempty"`
	Error  string          `json:"error,omitempty"`
}

func (e exitData) json() []byte {
	b, _ := json.Marshal(e)
	return b
}

// finish decides the run's status, stores its last output and exit, and
// wakes its readers.
func (x *run) finish(ctx context.Context, exit Exit) {
	r := x.rt
	status, code, errText := StatusCompleted, exit.Code, ""
	var note string
	cause := context.Cause(ctx)
	if ctx.Err() != nil && errors.Is(cause, errWaiting) {
		x.endObserved(RunEnd{Status: StatusRunning, Waiting: true})
		x.park()
		return
	}
	if ctx.Err() == nil && x.crashed(exit) {
		x.endObserved(RunEnd{Status: StatusRunning, Interrupted: true})
		x.interrupted()
		return
	}
	var div *DivergenceError
	var unsafeErr *unsafeInterruptedError
	var storeErr *outputStoreError
	var leaseErr *leaseLostError
	switch {
	case ctx.Err() != nil && (errors.As(cause, &div) || errors.As(cause, &unsafeErr) || errors.As(cause, &storeErr) ||
		errors.As(cause, &leaseErr) ||
		errors.Is(cause, errNoAttempts)):
		status, code, note = StatusFailed, 1, cause.Error()
		exit.Err = cause
	case ctx.Err() != nil && errors.Is(cause, errKilled):
		status, code, note = StatusCancelled, ExitCancelled, "Execution cancelled."
	case ctx.Err() != nil && errors.Is(cause, errClosed):
		status, code, note = StatusCancelled, ExitCancelled, "Execution cancelled because its workspace closed."
	case ctx.Err() != nil && errors.Is(cause, errTimeout):
		status, code = StatusTimedOut, ExitTimedOut
		note = fmt.Sprintf("Execution timed out after %s (limit Timeout).", x.fullTimeout)
	case isCrash(exit.Err):
		status, code, note = StatusFailed, 1, exit.Err.Error()
	case exit.Code != 0 || exit.Err != nil:
		status = StatusFailed
		if code == 0 {
			code = 1
		}
	}
	if status != StatusCompleted {
		exit.Value = nil
	}
	if x.observed != nil {
		limit := limitOf(exit.Err)
		if status == StatusTimedOut {
			limit = "Timeout"
		}
		x.endObserved(RunEnd{Status: status, ExitCode: code, Limit: limit})
	}
	if note != "" {
		errText = note
		x.out.writeNote(note)
	} else if exit.Err != nil {
		errText = exit.Err.Error()
	}
	ed := exitData{Status: status, Code: code, Value: exit.Value, Error: errText}
	evs, prog := x.out.close()
	evs = append(evs, journal.Event{Seq: x.out.nextSeq(), Kind: journal.Exit, Data: ed.json()})
	final := journal.Final{Status: string(status), ExitCode: code, Value: exit.Value, Error: errText,
		Finished: r.opts.Now()}
	if exit.Changes != nil {
		final.Changes, _ = json.Marshal(exit.Changes)
	}
	if final.KeepJournal = r.opts.KeepJournal && x.policy == PolicyReplay; final.KeepJournal && x.jh != nil {
		final.Ticks = x.jh.takeTicks()
	}
	// The record must be written even if the caller went away: use a
	// fresh context, bounded.
	wctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if x.checkpoint {
		// Before the record says finished, so that a finished run has it.
		if err := r.checkpoint(wctx, "exec", AfterCheckpoint(x.id)); err != nil {
			r.opts.Logger.ErrorContext(ctx, "nook: the checkpoint after a run failed; the run cannot be undone", "run", x.id, "err", err)
		}
		r.pruneRunCheckpoints(wctx)
	}
	// On failure (the database closed under the run) the record stays
	// running and is reaped as interrupted by the next runtime.
	gone, err := r.store.Finish(wctx, x.id, evs, prog, final, r.retain())
	if err != nil && len(evs) > 1 {
		// The output could not be stored (that is what stopped a run
		// with an outputStoreError): end the run without it, saying so,
		// rather than leave it running with no owner to finish it.
		lost := len(evs) - 1
		final.Error = strings.TrimSpace(final.Error + fmt.Sprintf(" %d output events could not be stored (%v).", lost, err))
		ed.Error = final.Error
		exitEv := journal.Event{Seq: evs[0].Seq, Kind: journal.Exit, Data: ed.json()}
		gone, err = r.store.Finish(wctx, x.id, []journal.Event{exitEv}, prog, final, r.retain())
	}
	if err != nil {
		r.opts.Logger.ErrorContext(ctx, "nook: recording the end of a run failed; the next runtime to open the workspace ends it as interrupted",
			"run", x.id, "err", err)
	}
	for _, g := range gone {
		r.removeOutput(wctx, g.ID)
	}
	r.mu.Lock()
	delete(r.runs, x.id)
	r.mu.Unlock()
	x.mu.Lock()
	x.finished = true
	close(x.notify)
	x.notify = make(chan struct{})
	x.mu.Unlock()
}

// wakeReaders tells waiting handles that new events are stored.
func (x *run) wakeReaders() {
	x.mu.Lock()
	close(x.notify)
	x.notify = make(chan struct{})
	x.mu.Unlock()
}

// waitChan returns a channel closed at the next change, and whether the
// run has finished.
func (x *run) waitChan() (<-chan struct{}, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.notify, x.finished
}

// park ends an attempt whose call waits for an answer: its output so far is
// stored, the record stays running (waiting, with no owner), and readers
// keep waiting for its end.
func (x *run) park() {
	r := x.rt
	evs, prog := x.out.close()
	wctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var ticks []journal.Tick
	if x.jh != nil {
		ticks = x.jh.takeTicks()
	}
	if err := r.appendEvents(wctx, x.id, evs, prog, ticks); err != nil {
		// Nothing is lost: the resumed run replays up to its wait and
		// prints (and reads the clock) again what was not stored.
		r.opts.Logger.WarnContext(x.ctx, "nook: storing the output of a run that waits failed", "run", x.id, "err", err)
	}
	r.mu.Lock()
	delete(r.runs, x.id)
	r.mu.Unlock()
	x.wakeReaders()
}

// dictatedTimers is the host of a run of another policy than replay that
// was given timer firings (ExecOptions.Timers): it dictates them to the
// backend as a journal would, from the first on every attempt, and fails
// the run with a *DivergenceError when the program fires another.
type dictatedTimers struct {
	Host
	x      *run
	mu     sync.Mutex
	timers []TimerFiring
	n      int
}

func (h *dictatedTimers) NextTimer() (int64, uint64, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n >= len(h.timers) {
		return 0, 0, false
	}
	return h.timers[h.n].ID, h.timers[h.n].After, true
}

func (h *dictatedTimers) TimerFired(id int64, after uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n >= len(h.timers) {
		return
	}
	if want := h.timers[h.n]; want != (TimerFiring{id, after}) {
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(TimerFiring{id, after})
		h.x.cancel(&DivergenceError{Want: "timer " + string(w), Got: "timer " + string(g)})
	}
	h.n++
}
