package worker

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/runtime/wasm"
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
	DefaultSize    = 2
	DefaultMaxRuns = 1000
	DefaultGrace   = 250 * time.Millisecond
	DefaultSample  = 10 * time.Millisecond
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
	p := &Pool{opts: opts, all: map[*proc]bool{}}
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

// get returns an idle worker, starting one when none is ready.
func (p *Pool) get(ctx context.Context) (*proc, error) {
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, errClosed
		}
		var w *proc
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
		return w, nil
	}
	w, err := p.spawn(ctx)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		w.kill()
		return nil, errClosed
	}
	p.all[w] = true
	return w, nil
}

// put returns a worker that finished a run cleanly to the idle workers,
// where it is the next to be taken (its caches are warm). The pool keeps
// up to twice Size idle: refilling while a worker was busy must not mean
// killing it when it comes back.
func (p *Pool) put(w *proc) {
	p.mu.Lock()
	if p.closed || len(p.idle) >= 2*p.opts.Size || w.runs >= p.opts.MaxRuns {
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
// prog cannot be rebuilt there: a program is shipped as its snapshot when
// its backend restores (JavaScript), or as its request, prepared again in
// the worker without the workspace (the shell; WebAssembly when the source
// is the module itself). A WebAssembly run of a workspace file runs in
// process. So does a program whose backend the workers do not have (the
// same id, of the same Go type, describing itself the same way in its
// BackendInfo): give Main the runtime's backends, configured alike.
func (p *Pool) Isolate(b host.Backend, prog host.Program, req *host.Request) (host.Program, bool) {
	info := b.Info()
	x := &program{pool: p, orig: prog, typ: fmt.Sprintf("%T", b), info: info, backend: info.ID, req: *req}
	if s, ok := prog.(host.Snapshotter); ok {
		if _, ok := b.(host.Restorer); ok {
			x.snapshot = s.Snapshot()
			return x, true
		}
	}
	switch b.(type) {
	case *shell.Backend:
	case *wasm.Backend:
		if _, ok := req.Env[wasm.RootEnv]; ok || !strings.HasPrefix(req.Source, "\x00asm") {
			return nil, false
		}
	default:
		// Another backend's Prepare must not need the workspace (the
		// worker prepares with a nil *vfs.FS).
	}
	return x, true
}

var _ host.Isolator = (*Pool)(nil)
