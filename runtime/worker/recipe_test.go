package worker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/runtime/worker"
	"github.com/nookdev/nook/vfs"
)

// bareArg, after worker.Arg, starts a worker given no builder.
const bareArg = "bare"

// fixed is a Builder that builds b whatever the options.
func fixed(name string, b runtime.Backend) host.Builder {
	return host.Builder{Name: name, Build: func(json.RawMessage) (runtime.Backend, error) { return b, nil }}
}

var (
	probeBuilder    = fixed("probe", probe{})
	mirrorBuilder   = fixed("mirror", mirror{})
	impostorBuilder = fixed("impostor", impostor{"the worker's"})
	countedBuilder  = host.Builder{Name: "counted", Build: func(o json.RawMessage) (runtime.Backend, error) {
		var b counted
		builds.Add(1)
		return b, json.Unmarshal(o, &b.N)
	}}
	builds atomic.Int64 // the counted backends this process built
)

// counted is a backend whose program prints the pid it runs in and how
// many counted backends that process built.
type counted struct{ N int }

func (b counted) Info() runtime.BackendInfo {
	return runtime.BackendInfo{ID: "counted", Root: "/workspace"}
}

func (b counted) Prepare(ctx context.Context, fsys *vfs.FS, req *runtime.Request) (runtime.Program, error) {
	return countedProgram{}, nil
}

func (b counted) WorkerRecipe() (host.Recipe, error) {
	return host.Recipe{Builder: "counted", Options: fmt.Append(nil, b.N)}, nil
}

type countedProgram struct{}

func (countedProgram) Run(ctx context.Context, host runtime.Host) runtime.Exit {
	host.Write(runtime.Stdout, fmt.Appendf(nil, "%d %d", os.Getpid(), builds.Load()))
	return runtime.Exit{}
}

func (probe) WorkerRecipe() (host.Recipe, error)  { return host.Recipe{Builder: "probe"}, nil }
func (mirror) WorkerRecipe() (host.Recipe, error) { return host.Recipe{Builder: "mirror"}, nil }

// local is a backend without a recipe: its program prints the pid of the
// process it runs in.
type local struct{}

func (local) Info() runtime.BackendInfo { return runtime.BackendInfo{ID: "local", Root: "/workspace"} }

func (local) Prepare(ctx context.Context, fsys *vfs.FS, req *runtime.Request) (runtime.Program, error) {
	return pidProgram{}, nil
}

type pidProgram struct{}

func (pidProgram) Run(ctx context.Context, host runtime.Host) runtime.Exit {
	host.Write(runtime.Stdout, fmt.Append(nil, os.Getpid()))
	return runtime.Exit{}
}

// impostor is a backend whose builder builds one that describes itself
// otherwise (a recipe that leaves out an option that matters).
type impostor struct{ desc string }

func (b impostor) Info() runtime.BackendInfo {
	return runtime.BackendInfo{ID: "impostor", Root: "/workspace", Description: b.desc}
}

func (impostor) Prepare(ctx context.Context, fsys *vfs.FS, req *runtime.Request) (runtime.Program, error) {
	return pidProgram{}, nil
}

func (impostor) WorkerRecipe() (host.Recipe, error) {
	return host.Recipe{Builder: "impostor"}, nil
}

// broken is a backend whose recipe its builder refuses.
type broken struct{ local }

func (broken) Info() runtime.BackendInfo {
	return runtime.BackendInfo{ID: "broken", Root: "/workspace"}
}

func (broken) WorkerRecipe() (host.Recipe, error) {
	return host.Recipe{Builder: shell.BuilderName, Options: json.RawMessage(`{"Bogus":1}`)}, nil
}

// TestWorkerImportsNoBackend: the worker package links no backend; the
// program that calls Main chooses them.
func TestWorkerImportsNoBackend(t *testing.T) {
	gobin := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if os.Getenv("GOROOT") == "" {
		var err error
		if gobin, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command to list the package's dependencies")
		}
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	var got []string
	hostSeen, runtimeSeen := false, false
	for _, d := range deps {
		switch d {
		case "github.com/nookdev/nook/runtime/host":
			hostSeen = true
		case "github.com/nookdev/nook/runtime":
			runtimeSeen = true
		case "github.com/nookdev/nook/runtime/js", "github.com/nookdev/nook/runtime/shell", "github.com/nookdev/nook/runtime/wasm":
			got = append(got, d)
		}
	}
	if !hostSeen || runtimeSeen || got != nil {
		t.Fatalf("runtime/worker depends on runtime/host: %v (want true), on runtime: %v (want false), on the backends %v (want none)", hostSeen, runtimeSeen, got)
	}
}

// startedIn runs src, waits until a worker is busy with it (or the run
// ended), and returns the result and whether a worker ran it.
func (e *env) startedIn(src string, o runtime.ExecOptions) (*runtime.Result, bool) {
	e.t.Helper()
	ctx := context.Background()
	h, err := e.ws.Runtime().Exec(ctx, src, o)
	if err != nil {
		e.t.Fatal(err)
	}
	type result struct {
		res *runtime.Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := h.Result(ctx)
		done <- result{res, err}
	}()
	inWorker := false
	for {
		select {
		case r := <-done:
			if r.err != nil {
				e.t.Fatal(r.err)
			}
			return r.res, inWorker
		case <-time.After(time.Millisecond):
			inWorker = inWorker || len(e.pool.Busy()) > 0
		}
	}
}

// TestShellOptionsHoldInWorker: a worker rebuilds the parent's shell with
// its options: a small MaxLoopIterations stops a loop in the process tier
// exactly as in process (the worker's own default is 1,000,000).
func TestShellOptionsHoldInWorker(t *testing.T) {
	sh := shell.New(shell.Options{MaxLoopIterations: 500})
	pool, err := worker.New(worker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	open := func(opts ...nook.Option) *nook.Workspace {
		ws, err := nook.OpenMemory(context.Background(), append(opts, nook.WithBackends(sh))...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.Close() })
		return ws
	}
	local := open()
	e := &env{t: t, ws: open(nook.WithIsolation(pool)), pool: pool}
	const src = "sleep 0.2; i=0; while :; do i=$((i+1)); done"
	const want = "loop iteration 501 exceeds the limit MaxLoopIterations (500)"
	h, err := local.Runtime().Exec(context.Background(), src, runtime.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in, err := h.Result(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // the second run names the recipe the worker has
		got, inWorker := e.startedIn(src, runtime.ExecOptions{})
		if !inWorker {
			t.Fatalf("%d: the run did not run in a worker", i)
		}
		if in.Status != runtime.StatusFailed || in.Error != want || got.Status != in.Status || got.Error != in.Error ||
			string(got.Stderr) != string(in.Stderr) {
			t.Fatalf("%d: in process %s %q %q; in a worker %s %q %q", i, in.Status, in.Error, in.Stderr,
				got.Status, got.Error, got.Stderr)
		}
	}
}

// TestWorkerBuildsEachRecipeOnce: a worker builds a backend the first
// time a run needs its recipe and keeps it: later runs of the recipe in
// that worker build nothing, a run of another recipe builds one more.
func TestWorkerBuildsEachRecipeOnce(t *testing.T) {
	pool, err := worker.New(worker.Options{Size: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	var wss []*nook.Workspace
	for n := range 2 {
		ws, err := nook.OpenMemory(context.Background(), nook.WithBackends(counted{n}), nook.WithIsolation(pool))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.Close() })
		wss = append(wss, ws)
	}
	seen := map[string]map[int]bool{} // by worker pid, the recipes it was given
	for i, n := range []int{0, 0, 1, 0, 1, 1, 0} {
		e := &env{t: t, ws: wss[n], pool: pool}
		res := e.run("x", runtime.ExecOptions{})
		var pid string
		var got int
		if _, err := fmt.Sscan(string(res.Stdout), &pid, &got); err != nil || res.Status != runtime.StatusCompleted {
			t.Fatalf("%d: %s %q %q", i, res.Status, res.Stdout, res.Stderr)
		}
		if pid == fmt.Sprint(os.Getpid()) {
			t.Fatalf("%d: the run ran in process", i)
		}
		if seen[pid] == nil {
			seen[pid] = map[int]bool{}
		}
		seen[pid][n] = true
		if got != len(seen[pid]) {
			t.Fatalf("%d: worker %s built %d backends for the recipes %v", i, pid, got, seen[pid])
		}
	}
}

// TestBackendWithoutRecipeRunsInProcess: a backend that cannot be rebuilt
// in a worker (not host.Rebuildable), or whose recipe builds another
// backend in the worker, runs its programs in the parent's process.
func TestBackendWithoutRecipeRunsInProcess(t *testing.T) {
	e := newEnv(t, runtime.Options{Backends: []runtime.Backend{local{}, impostor{"the parent's"}}}, worker.Options{})
	for _, id := range []string{"local", "impostor", "impostor"} {
		res := e.run("x", runtime.ExecOptions{Backend: id})
		if res.Status != runtime.StatusCompleted || string(res.Stdout) != fmt.Sprint(os.Getpid()) {
			t.Fatalf("%s: %s %q %q (this process is %d)", id, res.Status, res.Stdout, res.Stderr, os.Getpid())
		}
	}
}

// TestWorkerWithoutBuilderRunsInProcess: a worker given no builder for a
// backend leaves its programs to the parent's process.
func TestWorkerWithoutBuilderRunsInProcess(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, runtime.Options{Backends: []runtime.Backend{mirror{}}}, worker.Options{Command: []string{exe, worker.Arg, bareArg}})
	res := e.run("x", runtime.ExecOptions{Backend: "mirror", ID: "bare-1"})
	if res.Status != runtime.StatusCompleted || string(res.Stderr) != fmt.Sprint(os.Getpid()) {
		t.Fatalf("%s %q (this process is %d)", res.Status, res.Stderr, os.Getpid())
	}
	info, err := e.pool.Info(context.Background())
	if err != nil || len(info.Builders) != 0 {
		t.Fatalf("the workers' builders: %v %v", info.Builders, err)
	}
}

// TestRecipeTheBuilderRefuses: a recipe whose builder fails fails the
// run, with the builder's reason.
func TestRecipeTheBuilderRefuses(t *testing.T) {
	e := newEnv(t, runtime.Options{Backends: []runtime.Backend{broken{}}}, worker.Options{})
	const want = `the sandbox process could not rebuild backend "broken": shell: the options of a worker recipe: json: unknown field "Bogus"`
	for range 2 {
		res := e.run("x", runtime.ExecOptions{Backend: "broken"})
		if res.Status != runtime.StatusFailed || res.Error != want || string(res.Stderr) != want+"\n" {
			t.Fatalf("%s %q %q", res.Status, res.Error, res.Stderr)
		}
	}
}
