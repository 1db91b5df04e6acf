package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/runtime/wasm"
	"github.com/nookdev/nook/runtime/worker"
)

// The isolation tier of the runs the command line starts: by default each
// run's program executes in a worker process (`nook worker`, a hidden
// command: nook re-executes itself), sandboxed and killed over a limit;
// --isolation in-process runs programs inside nook's own process.

const (
	tierProcess   = "process"
	tierInProcess = "in-process"
)

// workerCommand is the hidden command a worker process runs.
const workerCommand = "worker"

// serveWorker runs nook as a worker when it was started as one, and
// reports whether it was. The worker rebuilds each backend of its parent
// (backends()) from the recipe the parent sends.
func serveWorker(args []string) (int, bool) {
	if len(args) < 1 || args[0] != workerCommand {
		return 0, false
	}
	return worker.Serve(js.Builder, shell.Builder, wasm.Builder), true
}

// lazyPool is the process tier, started on the first run (or by start): a
// command that runs nothing starts no worker.
type lazyPool struct {
	size int // idle workers kept ready (negative: none)

	once sync.Once
	pool *worker.Pool
	err  error
	// started is the pool once started, for readers that must not start
	// it (the metrics).
	started atomic.Pointer[worker.Pool]
}

func (l *lazyPool) start() (*worker.Pool, error) {
	l.once.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			l.err = fmt.Errorf("the process tier re-executes nook: %w (use --isolation in-process)", err)
			return
		}
		l.pool, l.err = worker.New(worker.Options{Command: []string{exe, workerCommand}, Size: l.size})
		if l.err == nil {
			l.started.Store(l.pool)
		}
	})
	return l.pool, l.err
}

// Isolate runs prog in a worker.
func (l *lazyPool) Isolate(b runtime.Backend, prog runtime.Program, req *runtime.Request) (runtime.Program, bool) {
	p, err := l.start()
	if err != nil {
		return failing{err}, true
	}
	return p.Isolate(b, prog, req)
}

func (l *lazyPool) close() {
	if l.pool != nil {
		l.pool.Close()
	}
}

// failing is a program that cannot run: the process tier could not start.
type failing struct{ err error }

func (f failing) Run(ctx context.Context, host runtime.Host) runtime.Exit {
	host.Write(runtime.Stderr, []byte(f.err.Error()+"\n"))
	return runtime.Exit{Code: 1, Err: f.err}
}

// isolator is the isolation of the workspace the command opens (nil: in
// process), created once.
func (a *app) isolator() runtime.Isolator {
	if a.isolation == tierInProcess || !worker.Supported {
		return nil
	}
	if a.pool == nil {
		size := -1 // a one-shot command needs one worker, started when it runs
		if a.cmd != nil && (a.cmd.name == "mcp" || a.cmd.name == "serve" || a.cmd.name == "node") {
			size = 0 // the pool's default: workers ready for every call
		}
		a.pool = &lazyPool{size: size}
	}
	return a.pool
}

// isolationText describes the isolation in force (it starts a worker to
// find out what the host allows).
func (a *app) isolationText() string {
	if a.isolator() == nil {
		why := "programs run inside nook's process; limits are the backends' own"
		if !worker.Supported {
			why = "the process tier needs Linux; " + why
		}
		return tierInProcess + " (" + why + ")"
	}
	p, err := a.pool.start()
	if err != nil {
		return "unavailable: " + err.Error()
	}
	info, err := p.Info(a.ctx)
	if err != nil {
		return "unavailable: " + err.Error()
	}
	return info.String()
}

// warmWorkers starts the process tier's pool now, so that the first run of
// a server does not wait for a worker to start.
func (a *app) warmWorkers() {
	if a.isolator() != nil {
		a.pool.start()
	}
}
