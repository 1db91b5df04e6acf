package worker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nookdev/nook/runtime/host"
)

// Options configure a Pool. Zero fields take the defaults.
type Options struct {
	// Command is the worker's command line: a program that calls Main
	// (with Arg as its first argument) or Serve. The default re-executes
	// this program: os.Executable() and Arg. `nook` uses its hidden
	// `nook worker` command.
	Command []string
	// Size is how many started, idle workers the pool keeps ready, so a
	// run does not wait for a process to start (default 2; negative:
	// none, a worker starts for each run).
	Size int
	// MaxRuns is how many runs a worker serves before it is replaced
	// (default 1000).
	MaxRuns int
	// MaxBackends is how many backends (distinct recipes) a worker
	// rebuilds before it is replaced (default 16): a worker keeps every
	// backend it built, with its caches.
	MaxBackends int
	// Grace is how long a worker whose run was stopped (timed out,
	// killed) has to return before it is killed (default 250 ms).
	Grace time.Duration
	// Sample is how often the resident memory and the CPU time of a busy
	// worker are read (default 10 ms).
	Sample time.Duration
	// NoNetNamespace starts workers in the host's network namespace even
	// when the pool could give each its own, empty one.
	NoNetNamespace bool
}

// The defaults of Options.
const (
	DefaultSize        = 2
	DefaultMaxRuns     = 1000
	DefaultMaxBackends = 16
	DefaultGrace       = 250 * time.Millisecond
	DefaultSample      = 10 * time.Millisecond
)

// Pool runs programs in worker processes: it is the process isolation tier
// (runtime.Isolator; set it as runtime.Options.Isolation, or open a
// workspace with nook.WithProcessIsolation). A worker runs one program at a
// time, and is reused for the next run only if the run left nothing behind;
// a worker killed for a limit, or that crashed, is replaced. A Pool is safe
// for concurrent use and may serve several runtimes. Close it when done.
type Pool struct {
	opts Options

	mu       sync.Mutex
	idle     []*proc
	all      map[*proc]bool // every live worker: true while it runs a program
	closed   bool
	refill   bool // a refill is under way
	netns    int  // 0: untried, 1: works, -1: unavailable
	last     *hello
	spawnErr error
	recipes  map[recipeKey]*recipe // every recipe a run of the pool needed
	serial   uint64                // the last recipe's serial number
	stats    poolStats
}

// New returns a pool and starts its idle workers in the background. It
// fails when the worker command cannot be found; a worker that cannot
// start fails the run that needed it, with the reason.
//
// The process tier needs Linux (/proc, seccomp, Landlock, prlimit): New
// fails elsewhere (see Supported).
func New(opts Options) (*Pool, error) {
	if !Supported {
		return nil, errors.New("worker: the process isolation tier needs Linux")
	}
	if len(opts.Command) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("worker: finding this program to re-execute as a worker: %w", err)
		}
		opts.Command = []string{exe, Arg}
	}
	if opts.Size == 0 {
		opts.Size = DefaultSize
	} else if opts.Size < 0 {
		opts.Size = 0
	}
	if opts.MaxRuns <= 0 {
		opts.MaxRuns = DefaultMaxRuns
	}
	if opts.MaxBackends <= 0 {
		opts.MaxBackends = DefaultMaxBackends
	}
	if opts.Grace <= 0 {
		opts.Grace = DefaultGrace
	}
	if opts.Sample <= 0 {
		opts.Sample = DefaultSample
	}
	if opts.NoNetNamespace || os.Geteuid() != 0 {
		// Only a privileged parent can unshare the network.
		opts.NoNetNamespace = true
		// (CLONE_NEWNET needs CAP_SYS_ADMIN.)
	}
	p := &Pool{opts: opts, all: map[*proc]bool{}, recipes: map[recipeKey]*recipe{}}
	p.fill()
	return p, nil
}

// Close kills every worker of the pool; runs still running in one end as
// crashed. Closing twice is harmless.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	procs := make([]*proc, 0, len(p.all))
	for w := range p.all {
		procs = append(procs, w)
	}
	p.idle = nil
	p.mu.Unlock()
	for _, w := range procs {
		w.kill()
		<-w.dead
	}
	return nil
}

// Busy returns the process ids of the workers running a program.
func (p *Pool) Busy() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var pids []int
	for w, busy := range p.all {
		if busy {
			pids = append(pids, w.pid)
		}
	}
	return pids
}

// Idle returns the process ids of the started workers waiting for a run.
func (p *Pool) Idle() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var pids []int
	for _, w := range p.idle {
		pids = append(pids, w.pid)
	}
	return pids
}

var errClosed = errors.New("the worker pool is closed")

// get returns an idle worker for a run, starting one when none is ready
// (cold).
func (p *Pool) get(ctx context.Context) (w *proc, cold bool, err error) {
	began := time.Now()
	w, cold, err = p.take(ctx)
	if err == nil {
		p.stats.runs.Add(1)
		p.stats.waited.Add(uint64(time.Since(began)))
		if cold {
			p.stats.coldStarts.Add(1)
		}
	}
	return w, cold, err
}

// take is get: cold says the worker was started for the caller.
func (p *Pool) take(ctx context.Context) (w *proc, cold bool, err error) {
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, false, errClosed
		}
		w = nil
		if n := len(p.idle); n > 0 {
			w = p.idle[n-1]
			p.idle = p.idle[:n-1]
		}
		if w != nil {
			p.all[w] = true
		}
		p.mu.Unlock()
		p.fill()
		if w == nil {
			break
		}
		select {
		case <-w.dead:
			p.forget(w)
			continue
		default:
		}
		return w, false, nil
	}
	w, err = p.spawn(ctx)
	if err != nil {
		return nil, true, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		w.kill()
		return nil, true, errClosed
	}
	p.all[w] = true
	return w, true, nil
}

// put returns a worker that finished a run cleanly to the idle workers,
// where it is the next to be taken (its caches are warm). The pool keeps
// up to twice Size idle: refilling while a worker was busy must not mean
// killing it when it comes back.
func (p *Pool) put(w *proc) {
	p.mu.Lock()
	if p.closed || len(p.idle) >= 2*p.opts.Size || w.runs >= p.opts.MaxRuns || len(w.sent) >= p.opts.MaxBackends {
		p.mu.Unlock()
		p.discard(w)
		return
	}
	p.all[w] = false
	p.idle = append(p.idle, w)
	p.mu.Unlock()
}

// discard kills a worker and forgets it.
func (p *Pool) discard(w *proc) {
	w.kill()
	p.forget(w)
	p.fill()
}

func (p *Pool) forget(w *proc) {
	p.mu.Lock()
	delete(p.all, w)
	p.mu.Unlock()
}

// fill starts workers in the background until Size are idle.
func (p *Pool) fill() {
	p.mu.Lock()
	if p.closed || p.refill || len(p.idle) >= p.opts.Size {
		p.mu.Unlock()
		return
	}
	p.refill = true
	p.mu.Unlock()
	go func() {
		for {
			p.mu.Lock()
			if p.closed || len(p.idle) >= p.opts.Size {
				p.refill = false
				p.mu.Unlock()
				return
			}
			p.mu.Unlock()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			w, err := p.spawn(ctx)
			cancel()
			p.mu.Lock()
			if err != nil || p.closed {
				p.refill = false
				p.mu.Unlock()
				if w != nil {
					w.kill()
				}
				return
			}
			p.all[w] = false
			p.idle = append(p.idle, w)
			p.mu.Unlock()
		}
	}()
}

// Isolate returns the program that runs prog in a worker, or false when
// prog cannot run there. The worker rebuilds prog's backend from its
// recipe (runtime.Rebuildable; a backend that has none runs in process),
// sent to each worker once, and then gets the program as its snapshot when
// the backend restores (JavaScript), or as its request, prepared again in
// the worker without the workspace, when the backend says it can be
// (runtime.AlonePreparer: the shell always; WebAssembly when the source is
// the module itself). A WebAssembly run of a workspace file runs in
// process. So does a program whose backend a worker has no builder for
// (give Main the builders of the runtime's backends), or rebuilds as
// another (of another Go type, or describing itself otherwise).
func (p *Pool) Isolate(b host.Backend, prog host.Program, req *host.Request) (host.Program, bool) {
	rb, ok := b.(host.Rebuildable)
	if !ok {
		return nil, false
	}
	r, err := rb.WorkerRecipe()
	if err != nil {
		return nil, false
	}
	rc := p.recipe(b, r)
	if rc.refused.Load() {
		return nil, false
	}
	x := &program{pool: p, orig: prog, rec: rc, backend: rc.build.Info.ID, req: *req}
	if s, ok := prog.(host.Snapshotter); ok {
		if _, ok := b.(host.Restorer); ok {
			x.snapshot = s.Snapshot()
			return x, true
		}
	}
	if a, ok := b.(host.AlonePreparer); ok && !a.PreparesAlone(req) {
		return nil, false
	}
	return x, true
}

// recipe is a backend's recipe, registered in its pool under a serial
// number: a worker is sent it with the first run that needs it, and later
// runs name it by its serial.
type recipe struct {
	serial  uint64
	build   build
	refused atomic.Bool // a worker built another backend from it: its programs run in process
}

// recipeKey tells recipes apart: the same recipe of backends of two Go
// types, or that describe themselves otherwise, is two recipes.
type recipeKey struct {
	builder string
	options string
	typ     reflect.Type
	info    host.BackendInfo
}

// recipe returns the pool's recipe r of backend b, registering it the
// first time.
func (p *Pool) recipe(b host.Backend, r host.Recipe) *recipe {
	info := b.Info()
	k := recipeKey{builder: r.Builder, options: string(r.Options), typ: reflect.TypeOf(b), info: info}
	p.mu.Lock()
	defer p.mu.Unlock()
	if rc := p.recipes[k]; rc != nil {
		return rc
	}
	p.serial++
	rc := &recipe{serial: p.serial, build: build{Builder: r.Builder, Options: r.Options, Type: k.typ.String(), Info: info}}
	p.recipes[k] = rc
	return rc
}

var _ host.Isolator = (*Pool)(nil)
