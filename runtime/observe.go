package runtime

import (
	"context"
	"errors"
	"time"

	"github.com/nookdev/nook/journal"
	"github.com/nookdev/nook/runtime/host"
)

// Observer sees what the runtime does, for tracing and metrics
// (Options.Observer; package telemetry implements it with OpenTelemetry).
// The runtime calls it from the goroutines of its runs, concurrently: an
// Observer must be safe for concurrent use. A nil Observer (the default)
// costs nothing.
//
// An Observer sees names and numbers only: run ids, backends, host-call
// operations ("ws:orders/get", "fs.readFile"), statuses and limit names,
// never a call's arguments, a program's source or its output.
type Observer interface {
	// RunStarted is called as an attempt of a run starts. parent is the
	// context of the Exec call (or, for a nested run, of the host call
	// that started it; for a run resumed by Recover, Recover's). It
	// returns the context the attempt's work is done in, which must not
	// carry parent's cancellation or deadline (the run outlives its
	// caller): typically context.Background() with the run's span in it.
	// done is called once, with how the attempt ended.
	RunStarted(parent context.Context, r RunStart) (ctx context.Context, done func(RunEnd))
	// HostCall is called as a host call of a run starts; done is called
	// with its error once it returns. A call answered from the journal
	// of an earlier attempt (c.Replayed) was not carried out again; done
	// follows at once.
	HostCall(ctx context.Context, c HostCallStart) (cctx context.Context, done func(error))
}

// JournalObserver is implemented by an Observer that also wants the
// durable journal writes of runs timed: each host call a replay-policy run
// records ("call") and each batch of output and progress a run stores
// ("events"). JournalWrite is called after each write, with how long it
// took and its error; it must be cheap.
type JournalObserver interface {
	JournalWrite(kind string, d time.Duration, err error)
}

// WaitObserver is implemented by an Observer that also wants to hear of
// each answer to a waiting call (an approval): c (its Payload left empty)
// began to wait at c.Since and was answered at answered, by the caller
// whose context is ctx (Runtime.Respond's).
type WaitObserver interface {
	CallAnswered(ctx context.Context, c PendingCall, answered time.Time)
}

// StageObserver is implemented by an Observer that also wants the stages
// of a run's work that are not host calls timed: in the process tier, the
// wait for a worker ("worker wait") and the round trip to it ("worker
// round trip": from the program sent to its exit received; the host calls
// the worker makes meanwhile are its children). Stage is called as a
// stage of run runID starts, with the context it starts in; it returns
// the stage's context and done, called once as the stage ends with its
// error and attributes (the worker's "nook.worker.pid", whether it was
// "nook.worker.cold": started for the run).
type StageObserver interface {
	Stage(ctx context.Context, runID, name string) (sctx context.Context, done func(err error, attrs ...StageAttr))
}

// withStages returns ctx, the context of run x's attempt, carrying the
// observer's Stage for the program (see host.StartStage), if it has one.
func (x *run) withStages(ctx context.Context) context.Context {
	so, ok := x.rt.opts.Observer.(StageObserver)
	if !ok {
		return ctx
	}
	id := x.id
	return host.WithStages(ctx, func(ctx context.Context, name string) (context.Context, func(error, ...StageAttr)) {
		return so.Stage(ctx, id, name)
	})
}

// putCall records a host call in the journal, timed for the observer.
func (r *Runtime) putCall(ctx context.Context, id string, ticks []journal.Tick, rec *journal.CallRecord) error {
	t0 := time.Now()
	err := r.store.PutCall(ctx, id, ticks, rec)
	r.journalWrote("call", t0, err)
	return err
}

// appendEvents stores a run's output and progress, timed for the
// observer.
func (r *Runtime) appendEvents(ctx context.Context, id string, evs []journal.Event, p journal.Progress, ticks []journal.Tick) error {
	t0 := time.Now()
	err := r.store.Append(ctx, id, evs, p, ticks)
	r.journalWrote("events", t0, err)
	return err
}

func (r *Runtime) journalWrote(kind string, t0 time.Time, err error) {
	if jo, ok := r.opts.Observer.(JournalObserver); ok {
		jo.JournalWrite(kind, time.Since(t0), err)
	}
}

// RunStart describes an attempt of a run as it starts.
type RunStart struct {
	ID      string
	Backend string
	Policy  Policy
	// Isolated: the program runs in a sandbox process (Options.Isolation).
	Isolated bool
	// Attempt is 0 on a run's first attempt, then the number of the
	// attempt that resumes it (restart and replay policies).
	Attempt int
	// Depth is how deeply the run is nested (0: started by Exec).
	Depth int
}

// RunEnd is how an attempt of a run ended.
type RunEnd struct {
	// Status is the run's status; StatusRunning when the attempt ended
	// without ending the run (Waiting, or Interrupted).
	Status   Status
	ExitCode int
	// Waiting: the run stopped to wait for an answer (CallContext.Interrupt)
	// and resumes once it is given.
	Waiting bool
	// Interrupted: the attempt was lost (its worker crashed) and the run
	// resumes by its policy.
	Interrupted bool
	// Limit names the limit that stopped the run ("MaxOutputBytes",
	// "Timeout"), if one did.
	Limit string
}

// HostCallStart describes a host call of a run.
type HostCallStart struct {
	RunID string
	// Kind is the call's kind ("fs", "module", "fetch", "exec") and Op
	// its operation ("readFile", "ws:orders/get", a backend's id).
	Kind, Op string
	Seq      int64
	// Replayed: the call was answered from the journal of an earlier
	// attempt, not carried out again.
	Replayed bool
}

// observeRun tells the observer, if any, that x's attempt starts.
func (x *run) observeRun(parent context.Context, isolated bool) (context.Context, func(RunEnd)) {
	obs := x.rt.opts.Observer
	if obs == nil {
		return context.Background(), nil
	}
	if parent == nil {
		parent = context.Background()
	}
	ctx, done := obs.RunStarted(parent, RunStart{ID: x.id, Backend: x.backend, Policy: x.policy,
		Isolated: isolated, Attempt: x.attempt, Depth: x.depth})
	if ctx == nil {
		ctx = context.Background()
	}
	return ctx, done
}

// endObserved reports the end of an attempt to its observer.
func (x *run) endObserved(e RunEnd) {
	if x.observed != nil {
		done := x.observed
		x.observed = nil
		done(e)
	}
}

// limitOf names the limit behind err, if any.
func limitOf(err error) string {
	var le *LimitError
	if errors.As(err, &le) {
		return le.Limit
	}
	return ""
}

// observeCall wraps the host call c in the runtime's observer: the
// HostConfig.Observe of its runs.
func (r *Runtime) observeCall(runID string) func(ctx context.Context, c *Call) (context.Context, func(error)) {
	obs := r.opts.Observer
	if obs == nil {
		return nil
	}
	return func(ctx context.Context, c *Call) (context.Context, func(error)) {
		return obs.HostCall(ctx, HostCallStart{RunID: runID, Kind: string(c.Kind), Op: c.Op, Seq: c.Seq})
	}
}

// observeReplayed tells the observer of a call answered from the journal.
func (r *Runtime) observeReplayed(ctx context.Context, runID string, c *Call, seq int64) {
	if obs := r.opts.Observer; obs != nil {
		_, done := obs.HostCall(ctx, HostCallStart{RunID: runID, Kind: string(c.Kind), Op: c.Op, Seq: seq, Replayed: true})
		done(nil)
	}
}
