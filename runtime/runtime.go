package runtime

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/nookdev/nook/internal/tier"
	"github.com/nookdev/nook/journal"
	"github.com/nookdev/nook/vfs"
)

// Options configure a Runtime. Zero fields take the defaults below.
type Options struct {
	// Backends run code; the first is the default. IDs must be unique.
	Backends []Backend
	// Modules are the host modules code may import, by name ("ws:orders").
	// Names must match ws:[A-Za-z0-9][A-Za-z0-9._-]*.
	Modules map[string]Module
	// ModuleDocs describe the modules, by name, to models and type
	// checkers (see ModuleDoc); setting it also registers ws:modules.
	ModuleDocs map[string]ModuleDoc
	// Outbound lets code use fetch; nil (the default) denies it.
	Outbound *Outbound
	// Limits bound every run (see Limits for the defaults).
	Limits Limits
	// Retention is how long finished runs are kept (default
	// DefaultRetention); MaxRetained bounds how many are kept (default
	// DefaultMaxRetained). The oldest go first.
	Retention   time.Duration
	MaxRetained int
	// MaxConcurrent bounds the runs running at once in this process
	// (default DefaultMaxConcurrent); Exec fails with EBUSY past it.
	MaxConcurrent int
	// OutputDir is the workspace directory where output that outgrows a
	// run's record is written in full (default DefaultOutputDir).
	OutputDir string
	// Now is the clock of run records (default time.Now).
	Now func() time.Time
	// OnInterrupt is the interrupt policy of each backend's runs, by
	// backend id (default PolicyFail); ExecOptions.OnInterrupt overrides it
	// for one run.
	OnInterrupt map[string]Policy
	// Recover resumes interrupted runs (restart and replay policies) when
	// the runtime starts, in the background; without it they resume when
	// Recover is called or when a reader re-attaches to them.
	Recover bool
	// KeepJournal keeps the journal of a finished replay-policy run until
	// the run is disposed of or pruned, so that Verify can re-run it
	// against it (conformance suites do); by default a run's journal is
	// deleted when it finishes.
	KeepJournal bool
	// OnWait is called, at most once per wait, when a host-module call
	// starts waiting for an answer (CallContext.Interrupt).
	OnWait func(PendingCall)
	// GuestClock is the clock sandboxed code reads (Date.now, clock_get),
	// default time.Now; a deterministic one makes recorded runs comparable
	// (conformance scenarios use one). Timers still run in real time,
	// unless VirtualTime is set.
	GuestClock func() time.Time
	// VirtualTime makes the guest's waits virtual: a timer (setTimeout,
	// setInterval), a shell sleep or a WASI guest's sleep (poll_oneoff on
	// a clock) does not wait when the program has nothing else to wait
	// for; it ends at once, as if its time had passed. A timer racing a
	// host call still waits for the call in real time, so the order of
	// the two is the one a run in real time takes. Conformance runners set
	// it, with a deterministic GuestClock, so that a suite of sleeps runs
	// at CPU speed; see Request.VirtualTime.
	VirtualTime bool
	// Logger receives what the runtime cannot return to a caller, such as
	// a failed renewal of its lease (default slog.Default()).
	Logger *slog.Logger
	// Isolation runs each program in a sandbox process (the process tier,
	// package runtime/worker); nil (the default) runs programs in this
	// process. See Isolator.
	Isolation Isolator
	// Observer sees runs and their host calls, for tracing and metrics
	// (package telemetry); nil (the default) sees nothing and costs
	// nothing.
	Observer Observer
	// CheckpointRuns brackets every run started by Exec with checkpoints
	// of the workspace, as ExecOptions.Checkpoint does for one, so that
	// Undo can revert it.
	CheckpointRuns bool
	// MaxRunCheckpoints is how many runs keep their checkpoints (default
	// DefaultMaxRunCheckpoints); the oldest runs' are deleted past it.
	MaxRunCheckpoints int
}

// Defaults of Options.
const (
	DefaultRetention     = 60 * time.Minute
	DefaultMaxRetained   = 100
	DefaultMaxConcurrent = 24
	DefaultOutputDir     = "/.nook/runs"

	// MaxIDBytes bounds a caller-chosen run id.
	MaxIDBytes = 128
)

// Lease timing: an owner renews its lease every leaseRenew, whether or not
// it has runs; a lease not renewed for leaseTTL is dead and its running runs
// are interrupted. After a failed renewal the owner retries every
// leaseRetry, and once its lease would expire within leaseRenew it stops
// its runs (another process may take them over after that) rather than let
// them go on unowned. Variables, so that tests can shorten them.
var (
	leaseTTL   = 30 * time.Second
	leaseRenew = 10 * time.Second
	leaseRetry = time.Second
)

const killPoll = 100 * time.Millisecond

// leaseTiming is one runtime's lease timing.
type leaseTiming struct{ ttl, renew, retry time.Duration }

// leaseLostError stops the runs of a runtime that could not renew its
// lease in time.
type leaseLostError struct{ err error }

func (e *leaseLostError) Error() string {
	return fmt.Sprintf("Execution stopped: this process could not renew its lease on the workspace (%v).", e.err)
}

func (e *leaseLostError) Unwrap() error { return e.err }

var moduleName = regexp.MustCompile(`^ws:[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Runtime runs code on a workspace. It is safe for concurrent use. Close
// it (the workspace does) to cancel its runs.
type Runtime struct {
	fs       *vfs.FS
	store    *journal.Store
	opts     Options
	lease    leaseTiming  // read from the package's timing once, in New
	renewed  atomic.Int64 // when the lease was last renewed (Unix ns)
	backends map[string]Backend
	infos    []BackendInfo
	owner    string

	mu     sync.Mutex
	runs   map[string]*run // runs executing in this process, by id
	closed bool
	wg     sync.WaitGroup // run goroutines
	stop   chan struct{}  // closes the maintenance loop
	done   chan struct{}  // the maintenance loop has exited
	wake   chan struct{}  // a run started: poll for kill requests

	recovering chan struct{} // Recover's slots (maxRecovering)

	pruneMu   sync.Mutex
	lastPrune time.Time
}

// New returns a runtime over fsys whose run records live in store. It
// finishes, as failed, runs left running by processes that died.
func New(ctx context.Context, fsys *vfs.FS, store *journal.Store, opts Options) (*Runtime, error) {
	if opts.Retention <= 0 {
		opts.Retention = DefaultRetention
	}
	if opts.MaxRetained <= 0 {
		opts.MaxRetained = DefaultMaxRetained
	}
	if opts.MaxConcurrent <= 0 {
		opts.MaxConcurrent = DefaultMaxConcurrent
	}
	if opts.MaxRunCheckpoints <= 0 {
		opts.MaxRunCheckpoints = DefaultMaxRunCheckpoints
	}
	if opts.OutputDir == "" {
		opts.OutputDir = DefaultOutputDir
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	opts.Limits = opts.Limits.WithDefaults()
	if opts.Isolation == nil {
		opts.Isolation, _ = tier.Default.(Isolator)
	}
	dir, err := vfs.Clean(opts.OutputDir)
	if err != nil {
		return nil, fmt.Errorf("runtime: OutputDir: %w", err)
	}
	opts.OutputDir = dir
	r := &Runtime{
		fs: fsys, store: store, opts: opts,
		backends: map[string]Backend{},
		owner:    ulid.Make().String(),
		runs:     map[string]*run{},
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
		wake:     make(chan struct{}, 1),

		recovering: make(chan struct{}, maxRecovering),
	}
	for _, b := range opts.Backends {
		info := b.Info()
		if info.ID == "" {
			return nil, errors.New("runtime: a backend has an empty ID")
		}
		if _, dup := r.backends[info.ID]; dup {
			return nil, fmt.Errorf("runtime: two backends have the ID %q", info.ID)
		}
		r.backends[info.ID] = b
		r.infos = append(r.infos, info)
	}
	for name, m := range opts.Modules {
		if !moduleName.MatchString(name) {
			return nil, fmt.Errorf("runtime: host module name %q must match ws:[A-Za-z0-9][A-Za-z0-9._-]*", name)
		}
		for fn, f := range m {
			if fn == "" || f == nil {
				return nil, fmt.Errorf("runtime: host module %q has an empty function name or a nil function", name)
			}
		}
	}
	r.addCallBackend()
	if err := r.describeModules(); err != nil {
		return nil, err
	}
	r.lease = leaseTiming{ttl: leaseTTL, renew: leaseRenew, retry: leaseRetry}
	if err := store.Renew(ctx, r.owner, opts.Now().Add(r.lease.ttl)); err != nil {
		return nil, err
	}
	r.renewed.Store(time.Now().UnixNano())
	if err := r.reapOrphans(ctx); err != nil {
		return nil, err
	}
	go r.maintain()
	if opts.Recover {
		go r.Recover(context.Background())
	}
	return r, nil
}

// Backends describes the configured backends, the default first.
func (r *Runtime) Backends() []BackendInfo {
	return append([]BackendInfo(nil), r.infos...)
}

// Networked reports whether code may reach the network (the runtime has
// an outbound policy, so fetch works).
func (r *Runtime) Networked() bool { return r.opts.Outbound != nil }

// OutputDir is the workspace directory that holds, per run, the files of
// output that outgrew the run's record (OutputDir/<id>/stdout and
// .../stderr). DisposeExec and retention delete a run's directory.
func (r *Runtime) OutputDir() string { return r.opts.OutputDir }

// Close cancels the runs of this runtime (they finish as cancelled, with
// "Execution cancelled because its workspace closed."), waits for their
// records to be written, and ends the runtime's lease. Closing twice is
// harmless.
func (r *Runtime) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	for _, x := range r.runs {
		if x.cancel != nil { // nil: still preparing; it will not start
			x.cancel(errClosed)
		}
	}
	r.mu.Unlock()
	r.wg.Wait()
	close(r.stop)
	<-r.done
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return r.store.Release(ctx, r.owner)
}

// maintain renews the lease (always: a run may start at any moment, and it
// must never start under a dead lease), polls for kill requests from other
// processes while runs are active, and prunes finished runs.
func (r *Runtime) maintain() {
	defer close(r.done)
	renew := time.NewTimer(r.lease.renew)
	defer renew.Stop()
	kill := time.NewTicker(killPoll)
	defer kill.Stop()
	renewed := time.Now() // the last successful renewal (this process's clock)
	for {
		var killC <-chan time.Time
		if r.active() > 0 {
			killC = kill.C
		}
		select {
		case <-r.stop:
			return
		case <-r.wake:
			// A run started: poll for kill requests from now on.
		case <-renew.C:
			ctx, cancel := context.WithTimeout(context.Background(), r.lease.renew)
			err := r.store.Renew(ctx, r.owner, r.opts.Now().Add(r.lease.ttl))
			if err == nil {
				renewed = time.Now()
				r.renewed.Store(renewed.UnixNano())
				r.prune(ctx, false)
				renew.Reset(r.lease.renew)
			} else {
				r.opts.Logger.Error("nook: renewing the runtime's lease failed", "owner", r.owner, "err", err)
				if time.Since(renewed) >= r.lease.ttl-r.lease.renew {
					r.stopAll(&leaseLostError{err})
				}
				renew.Reset(r.lease.retry)
			}
			cancel()
		case <-killC:
			ctx, cancel := context.WithTimeout(context.Background(), r.lease.renew)
			ids, err := r.store.KillRequests(ctx, r.owner)
			cancel()
			if err == nil {
				for _, id := range ids {
					r.killLocal(id)
				}
			}
		}
	}
}

// Lease reports the runtime's lease on the workspace's runs: when it was
// last renewed, and whether it still holds (renewed within its lifetime,
// 30 s, less the renewal period: past that the runtime stops its runs, as
// another process may reap them as interrupted). A readiness probe asks it.
func (r *Runtime) Lease() (renewed time.Time, held bool) {
	renewed = time.Unix(0, r.renewed.Load())
	return renewed, time.Since(renewed) < r.lease.ttl-r.lease.renew
}

// stopAll cancels every run of this runtime with cause.
func (r *Runtime) stopAll(cause error) {
	r.mu.Lock()
	var cancels []context.CancelCauseFunc
	for _, x := range r.runs {
		if x.cancel != nil {
			cancels = append(cancels, x.cancel)
		}
	}
	r.mu.Unlock()
	for _, c := range cancels {
		c(cause)
	}
}

func (r *Runtime) active() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.runs)
}

// reapOrphans fails the runs whose owner's lease is dead (their process
// stopped before they finished) and whose policy is fail; the others wait
// for Recover or a reader.
func (r *Runtime) reapOrphans(ctx context.Context) error {
	orphans, err := r.store.Orphans(ctx, r.opts.Now())
	if err != nil {
		return err
	}
	for _, o := range orphans {
		if p := Policy(o.Policy); p != PolicyRestart && p != PolicyReplay {
			r.finishOrphan(ctx, o)
		}
	}
	return nil
}

const interruptedText = "Execution was interrupted: the process running it stopped before it finished."

// finishOrphan fails an interrupted run, appending the reason to stderr.
func (r *Runtime) finishOrphan(ctx context.Context, o *journal.Run) error {
	return r.finishRecord(ctx, o, StatusFailed, 1, interruptedText)
}

// prune deletes runs past retention, at most once a second unless forced.
func (r *Runtime) prune(ctx context.Context, force bool) {
	r.pruneMu.Lock()
	now := r.opts.Now()
	if !force && now.Sub(r.lastPrune) < time.Second {
		r.pruneMu.Unlock()
		return
	}
	r.lastPrune = now
	r.pruneMu.Unlock()
	ret := r.retain()
	gone, err := r.store.Prune(ctx, ret.Before, ret.Keep)
	if err != nil {
		return
	}
	for _, g := range gone {
		r.removeOutput(ctx, g.ID)
	}
}

// retain is the retention policy as of now.
func (r *Runtime) retain() journal.Retain {
	return journal.Retain{Before: r.opts.Now().Add(-r.opts.Retention), Keep: r.opts.MaxRetained}
}

// outputDir is the workspace directory of a run's spilled output.
func (r *Runtime) outputDir(id string) string { return r.opts.OutputDir + "/" + id }

func (r *Runtime) removeOutput(ctx context.Context, id string) {
	r.fs.Remove(ctx, r.outputDir(id), &vfs.RemoveOptions{Recursive: true, Force: true})
}

// backendNames lists the backend ids for error messages.
func (r *Runtime) backendNames() string {
	if len(r.infos) == 0 {
		return "<none>"
	}
	names := make([]string, len(r.infos))
	for i, in := range r.infos {
		names[i] = fmt.Sprintf("%q", in.ID)
	}
	return strings.Join(names, ", ")
}

// moduleInfo lists host modules and their function names for backends.
func (r *Runtime) moduleInfo() map[string][]string {
	if len(r.opts.Modules) == 0 {
		return nil
	}
	out := make(map[string][]string, len(r.opts.Modules))
	for name, m := range r.opts.Modules {
		fns := make([]string, 0, len(m))
		for fn := range m {
			fns = append(fns, fn)
		}
		sort.Strings(fns)
		out[name] = fns
	}
	return out
}
