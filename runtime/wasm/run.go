package wasm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/experimental/sysfs"
	"github.com/tetratelabs/wazero/sys"

	"github.com/nookdev/nook/internal/memwatch"
	rthost "github.com/nookdev/nook/runtime/host"
)

// program is one prepared run of a compiled module.
type program struct {
	b     *Backend
	opts  Options // the backend's, with the run's own root (RootEnv)
	mod   *compiled
	req   *rthost.Request
	argv0 string
}

// runState is what the host side of one run keeps: the host, the context,
// why the run was stopped, and the pending result of the nook module.
type runState struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	host   rthost.Host
	opts   *Options
	req    *rthost.Request

	mu      sync.Mutex
	stopErr error

	pending       []byte
	pendingStatus uint64

	start    time.Time
	lastNano int64
	// floor is where a virtual sleep (Request.VirtualTime) left the
	// monotonic clock: the guest slept until then without waiting, and
	// its clock reads no earlier.
	floor int64

	// fds are the guest's file descriptors (preview1.go); noFollow is set
	// while path_filestat_set_times works on a symlink itself, and
	// lastLink is the target the last readlink read.
	fds      *fdTable
	noFollow bool
	lastLink []byte
	// lastOpenDir reports whether the last file opened is a directory.
	lastOpenDir bool

	// epoch counts the run's contacts with the world outside the guest:
	// every host call, output write and clock read, and every sleep. What
	// a file learned from the host stays true while it is unchanged (see
	// file.known).
	epoch atomic.Uint64
}

// epochHost is the run's host, counting every contact in the run's epoch.
type epochHost struct {
	rthost.Host
	st *runState
}

func (h epochHost) Call(ctx context.Context, c *rthost.Call) (any, error) {
	res, err := h.Host.Call(ctx, c)
	h.st.epoch.Add(1)
	return res, err
}

func (h epochHost) Write(stream rthost.Stream, p []byte) error {
	h.st.epoch.Add(1)
	return h.Host.Write(stream, p)
}

func (h epochHost) Now() time.Time {
	h.st.epoch.Add(1)
	return h.Host.Now()
}

type stateKey struct{}

func stateOf(ctx context.Context) *runState {
	st, _ := ctx.Value(stateKey{}).(*runState)
	return st
}

// stop ends the run because of err (a *runtime.LimitError): the guest is
// stopped at its next check and the run fails with err.
func (st *runState) stop(err error) {
	st.mu.Lock()
	if st.stopErr == nil {
		st.stopErr = err
	}
	st.mu.Unlock()
	st.cancel(err)
}

func (st *runState) stopped() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.stopErr
}

// Run instantiates the module with the run's arguments, environment, stdin
// and filesystem, and runs its _start function.
func (p *program) Run(parent context.Context, host rthost.Host) rthost.Exit {
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	st := &runState{ctx: ctx, cancel: cancel, host: host, opts: &p.opts, req: p.req}
	// The memory watchdog charges the run with the growth of the Go heap
	// (the host side: the guest's memory is mapped outside it and bounded
	// by its page limit) while it is not waiting for its host.
	mem := memwatch.Watch(memwatch.Options{Tree: p.req.Tree, Limit: p.req.Limits.MaxMemoryBytes,
		Stop: func(le *rthost.LimitError) { st.stop(le) }})
	defer mem.Done()
	st.host = epochHost{Host: memwatch.Host(host, mem), st: st}
	st.start = host.Now()
	st.fds = newFDTable()
	fsys := newFS(st)
	defer fsys.closeAll()

	cfg := wazero.NewModuleConfig().
		WithName("").
		WithStartFunctions().
		WithArgs(append([]string{p.argv0}, p.req.Args...)...).
		WithStdin(bytes.NewReader(p.req.Stdin)).
		WithStdout(&output{st: st, stream: rthost.Stdout}).
		WithStderr(&output{st: st, stream: rthost.Stderr}).
		WithWalltime(st.walltime, sys.ClockResolution(time.Microsecond)).
		WithNanotime(st.nanotime, sys.ClockResolution(time.Microsecond)).
		WithNanosleep(st.nanosleep).
		WithRandSource(randSource{host}).
		WithFSConfig(wazero.NewFSConfig().(sysfs.FSConfig).WithSysFSMount(fsys, p.opts.Mount))
	env := p.req.Env
	keys := make([]string, 0, len(env))
	for k := range env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cfg = cfg.WithEnv(k, env[k])
	}
	// Go's wasip1 port takes its working directory from PWD; give it the
	// run's when it is not the root and the caller set no PWD.
	if _, ok := env["PWD"]; !ok && p.req.Cwd != p.opts.Root {
		cfg = cfg.WithEnv("PWD", guestPath(p.opts, p.req.Cwd))
	}

	lim := int64(p.req.Limits.MaxTableElements)
	if p.mod.rewritten && int64(p.mod.info.tableMin) > lim {
		le := &rthost.LimitError{Limit: "MaxTableElements", Max: lim,
			What: fmt.Sprintf("a table of %d elements", p.mod.info.tableMin)}
		st.stop(le)
		return p.exit(st, parent, le)
	}
	cctx := experimental.WithMemoryAllocator(context.WithValue(ctx, stateKey{}, st), memoryAllocator)
	mod, err := p.mod.rt.rt.InstantiateModule(cctx, p.mod.cm, cfg)
	if err != nil {
		return p.exit(st, parent, fmt.Errorf("cannot instantiate the module: %w", err))
	}
	defer mod.Close(context.Background())
	if !p.mod.rewritten {
		_, err = mod.ExportedFunction("_start").Call(cctx)
		return p.exit(st, parent, err)
	}
	stop, ok1 := mod.ExportedGlobal(meterStopExport).(api.MutableGlobal)
	tmax, ok2 := mod.ExportedGlobal(meterTableMaxExport).(api.MutableGlobal)
	hit := mod.ExportedGlobal(meterTableHitExport)
	if !ok1 || !ok2 || hit == nil {
		return p.exit(st, parent, errors.New("rewritten module without its globals"))
	}
	tmax.Set(uint64(lim))
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			stop.Set(1)
		case <-done:
		}
	}()
	if p.mod.info.start {
		_, err = mod.ExportedFunction(meterStartExport).Call(cctx)
	}
	if err == nil {
		_, err = mod.ExportedFunction("_start").Call(cctx)
	}
	x := p.exit(st, parent, err)
	if want := int64(hit.Get()); want != 0 && x.Err != nil && st.stopped() == nil && parent.Err() == nil {
		// The guest could not go on without the table it asked for.
		le := &rthost.LimitError{Limit: "MaxTableElements", Max: lim, What: fmt.Sprintf("a table of %d elements", want)}
		_ = st.host.Write(rthost.Stderr, []byte("\n"+le.Error()+"\n"))
		x.Err = fmt.Errorf("%w; then %w", le, x.Err)
	}
	return x
}

// exit turns how _start ended into the run's exit.
func (p *program) exit(st *runState, parent context.Context, err error) rthost.Exit {
	if serr := st.stopped(); serr != nil {
		msg := serr.Error()
		_ = st.host.Write(rthost.Stderr, []byte("\n"+msg+"\n"))
		return rthost.Exit{Code: 1, Err: serr}
	}
	if perr := parent.Err(); perr != nil {
		return rthost.Exit{Code: 1, Err: context.Cause(parent)}
	}
	if err == nil {
		return rthost.Exit{}
	}
	var ee *sys.ExitError
	if errors.As(err, &ee) {
		switch ee.ExitCode() {
		case 0:
			return rthost.Exit{}
		case sys.ExitCodeContextCanceled, sys.ExitCodeDeadlineExceeded:
			return rthost.Exit{Code: 1, Err: err}
		}
		return rthost.Exit{Code: int(ee.ExitCode()), Err: fmt.Errorf("exit status %d", ee.ExitCode())}
	}
	if d := p.mod.info.dbg; d != nil {
		err = &traceError{msg: d.traceLines(err.Error()), err: err}
	}
	_ = st.host.Write(rthost.Stderr, []byte("\n"+err.Error()+"\n"))
	return rthost.Exit{Code: 1, Err: err}
}

// traceError is a trap whose stack trace names the module's own source
// lines (see dwarf.go).
type traceError struct {
	msg string
	err error
}

func (e *traceError) Error() string { return e.msg }
func (e *traceError) Unwrap() error { return e.err }

// output is a guest's stdout or stderr.
type output struct {
	st     *runState
	stream rthost.Stream
}

func (o *output) Write(p []byte) (int, error) {
	if err := o.st.host.Write(o.stream, p); err != nil {
		o.st.stop(err)
		return 0, err
	}
	return len(p), nil
}

func (st *runState) walltime() (int64, int32) {
	t := st.host.Now()
	return t.Unix(), int32(t.Nanosecond())
}

// nanotime is the run's monotonic clock: time since the run started, by
// the host's clock, never going back.
func (st *runState) nanotime() int64 {
	n := int64(st.host.Now().Sub(st.start))
	st.mu.Lock()
	defer st.mu.Unlock()
	n = max(n, st.lastNano, st.floor)
	st.lastNano = n
	return n
}

// nanosleep sleeps, for at most the rest of the run. Under virtual time it
// does not wait: the monotonic clock moves to the end of the sleep.
func (st *runState) nanosleep(ns int64) {
	if ns <= 0 {
		return
	}
	st.epoch.Add(1)
	if st.req != nil && st.req.VirtualTime {
		st.mu.Lock()
		st.floor = max(st.floor, st.lastNano+ns)
		st.mu.Unlock()
		return
	}
	t := time.NewTimer(time.Duration(ns))
	defer t.Stop()
	select {
	case <-t.C:
	case <-st.ctx.Done():
	}
}

// randSource reads the run's randomness.
type randSource struct{ host rthost.Host }

func (r randSource) Read(p []byte) (int, error) {
	r.host.Random(p)
	return len(p), nil
}
