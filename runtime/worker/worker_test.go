package worker_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/runtime/wasm"
	"github.com/nookdev/nook/runtime/worker"
)

func backends() []runtime.Backend {
	return []runtime.Backend{js.New(js.Options{}), shell.New(shell.Options{}), wasm.New(wasm.Options{})}
}

// builders are what the test binary's workers rebuild backends with.
func builders() []host.Builder {
	return []host.Builder{js.Builder, shell.Builder, wasm.Builder, probeBuilder, mirrorBuilder, impostorBuilder,
		countedBuilder}
}

// TestMain makes the test binary its own worker: with every builder, or
// with none when started with bareArg after worker.Arg.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == worker.Arg && os.Args[2] == bareArg {
		worker.Main()
	}
	worker.Main(builders()...)
	os.Exit(m.Run())
}

// env is a workspace whose runs run in a pool of workers.
type env struct {
	t    *testing.T
	ws   *nook.Workspace
	pool *worker.Pool
}

func newEnv(t *testing.T, o runtime.Options, wo worker.Options) *env {
	t.Helper()
	pool, err := worker.New(wo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	ws, err := nook.OpenMemory(context.Background(), nook.WithRuntime(o), nook.WithBackends(backends()...),
		nook.WithIsolation(pool))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return &env{t: t, ws: ws, pool: pool}
}

// run runs src to its end.
func (e *env) run(src string, o runtime.ExecOptions) *runtime.Result {
	e.t.Helper()
	ctx := context.Background()
	h, err := e.ws.Runtime().Exec(ctx, src, o)
	if err != nil {
		e.t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	return res
}

// healthy checks that a run of the runtime still completes.
func (e *env) healthy() {
	e.t.Helper()
	res := e.run(`export default (x) => x.n + 1`, runtime.ExecOptions{Input: map[string]int{"n": 41}})
	if res.Status != runtime.StatusCompleted || string(res.Value) != "42" {
		e.t.Fatalf("a healthy run after it: %s %q %q", res.Status, res.Value, res.Stderr)
	}
}

func TestJSRunsInWorker(t *testing.T) {
	e := newEnv(t, runtime.Options{}, worker.Options{})
	res := e.run(`import fs from "node:fs";
export default async (x) => {
  fs.writeFileSync("a.txt", "hi " + x.n);
  console.log("pid", process.pid, Date.now() > 0, Math.random() < 1);
  await new Promise((r) => setTimeout(r, 5));
  return fs.readFileSync("a.txt", "utf8");
}`, runtime.ExecOptions{Input: map[string]int{"n": 7}})
	if res.Status != runtime.StatusCompleted || string(res.Value) != `"hi 7"` {
		t.Fatalf("%s %q stdout=%q stderr=%q", res.Status, res.Value, res.Stdout, res.Stderr)
	}
	b, err := e.ws.FS().ReadFile(context.Background(), "/workspace/a.txt")
	if err != nil || string(b) != "hi 7" {
		t.Fatalf("the file the worker wrote: %q %v", b, err)
	}
}

func TestShellRunsInWorker(t *testing.T) {
	e := newEnv(t, runtime.Options{}, worker.Options{})
	res := e.run("echo one > f; cat f | tr a-z A-Z; ls", runtime.ExecOptions{Backend: "shell"})
	if res.Status != runtime.StatusCompleted || string(res.Stdout) != "ONE\nf\n" {
		t.Fatalf("%s stdout=%q stderr=%q", res.Status, res.Stdout, res.Stderr)
	}
}

// deepParse lets a JSON.parse recurse past the worker's Go stack: the
// nesting limit that stops it in front of the parser is raised out of the
// way, so that the worker really crashes.
var deepParse = runtime.Options{Limits: runtime.Limits{MaxNestingDepth: 1 << 30}}

// TestStackOverflowCrashesOnlyItsRun: a parse that overflows the Go
// stack is a fatal error of the worker, which ends its run, not the host.
func TestStackOverflowCrashesOnlyItsRun(t *testing.T) {
	e := newEnv(t, deepParse, worker.Options{})
	res := e.run(`const n = 3e6; JSON.parse("[".repeat(n) + "]".repeat(n));`, runtime.ExecOptions{})
	want := "the sandbox process crashed: runtime: goroutine stack exceeds 67108864-byte limit"
	if res.Status != runtime.StatusFailed || res.Error != want || !strings.Contains(string(res.Stderr), want) {
		t.Fatalf("%s %q stderr=%q", res.Status, res.Error, res.Stderr)
	}
	e.healthy()
	if s := e.pool.Stats(); s.Crashes != 1 || s.LimitKills != 0 || s.Runs != 2 || s.Started < 2 {
		t.Errorf("pool stats after a crash and a run: %+v", s)
	}
}

// TestRunawayBuiltinTimesOut: a built-in that runs long past its run's
// end (JSON.stringify of a value with 2^30 leaves) is killed with its worker.
func TestRunawayBuiltinTimesOut(t *testing.T) {
	e := newEnv(t, runtime.Options{}, worker.Options{})
	ctx := context.Background()
	h, err := e.ws.Runtime().Exec(ctx, `let o = [1]; for (let i = 0; i < 30; i++) o = [o, o]; JSON.stringify(o);`,
		runtime.ExecOptions{Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	for pid == 0 {
		if b := e.pool.Busy(); len(b) == 1 {
			pid = b[0]
		}
		time.Sleep(time.Millisecond)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusTimedOut || res.ExitCode != runtime.ExitTimedOut {
		t.Fatalf("%s %d %q", res.Status, res.ExitCode, res.Error)
	}
	if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
		t.Fatalf("the worker %d is still there: %v", pid, err)
	}
	e.healthy()
	// Nothing of the run goes on in the host: over a quiet spell the host
	// uses next to no CPU, and stays small.
	_, cpu0, _ := worker.Usage(os.Getpid())
	time.Sleep(300 * time.Millisecond)
	rss, cpu1, err := worker.Usage(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if cpu1-cpu0 > 100*time.Millisecond || rss > 256<<20 {
		t.Fatalf("the host used %s of CPU in a quiet spell of 300ms and holds %d bytes", cpu1-cpu0, rss)
	}
}

// TestMemoryHogFailsNamingTheLimit: a program that holds more memory than
// MaxMemoryBytes is killed, naming the limit.
func TestMemoryHogFailsNamingTheLimit(t *testing.T) {
	e := newEnv(t, runtime.Options{Limits: runtime.Limits{MaxMemoryBytes: 128 << 20}}, worker.Options{})
	res := e.run(`const a = []; for (let i = 0; ; i++) a.push({i, s: "x" + i});`, runtime.ExecOptions{Timeout: time.Minute})
	if res.Status != runtime.StatusFailed || !strings.Contains(res.Error, "exceeds the limit MaxMemoryBytes (134217728)") {
		t.Fatalf("%s %q stderr=%q", res.Status, res.Error, res.Stderr)
	}
	e.healthy()
	if s := e.pool.Stats(); s.LimitKills != 1 || s.Crashes != 0 || s.Runs != 2 {
		t.Errorf("pool stats after a limit kill and a run: %+v", s)
	}
}

// TestCPUTimeLimit: a run that computes past MaxCPUTime is killed,
// naming the limit.
func TestCPUTimeLimit(t *testing.T) {
	e := newEnv(t, runtime.Options{Limits: runtime.Limits{MaxCPUTime: 300 * time.Millisecond}}, worker.Options{})
	res := e.run(`for (;;) {}`, runtime.ExecOptions{Timeout: time.Minute})
	if res.Status != runtime.StatusFailed || !strings.HasSuffix(res.Error, "exceeds the limit MaxCPUTime (300000000)") ||
		!strings.HasPrefix(res.Error, "CPU time of ") {
		t.Fatalf("%s %q stderr=%q", res.Status, res.Error, res.Stderr)
	}
	e.healthy()
	if s := e.pool.Stats(); s.LimitKills != 1 || s.Crashes != 0 {
		t.Errorf("pool stats after a CPU-time kill: %+v", s)
	}
}

// TestPoolStatsColdStarts: a pool that keeps no idle worker starts one
// for each run, and says so; the time runs waited is counted.
func TestPoolStatsColdStarts(t *testing.T) {
	e := newEnv(t, runtime.Options{}, worker.Options{Size: -1})
	e.healthy()
	e.healthy()
	if s := e.pool.Stats(); s.Runs != 2 || s.ColdStarts != 2 || s.Started != 2 || s.Waited <= 0 || s.StartFailures != 0 {
		t.Errorf("pool stats of two cold runs: %+v", s)
	}
}

// TestOutputLimit: output past MaxOutputBytes stops the run as in process.
func TestOutputLimit(t *testing.T) {
	e := newEnv(t, runtime.Options{Limits: runtime.Limits{MaxOutputBytes: 1000}}, worker.Options{})
	res := e.run(`for (let i = 0; ; i++) console.log("line " + i);`, runtime.ExecOptions{})
	if res.Status != runtime.StatusFailed || !strings.Contains(res.Error, "exceeds the limit MaxOutputBytes (1000)") {
		t.Fatalf("%s %q", res.Status, res.Error)
	}
	if res.StdoutBytes > 1000 {
		t.Fatalf("%d bytes of output stored", res.StdoutBytes)
	}
	e.healthy()
}

// TestApprovalInWorker: a host-module call that waits for an answer
// (CallContext.Interrupt) releases the worker, and the run resumes in
// another once answered.
func TestApprovalInWorker(t *testing.T) {
	mods := map[string]runtime.Module{"ws:ask": {
		"ok": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			ans, err := c.Interrupt(map[string]any{"q": args[0]})
			if err != nil {
				return nil, err
			}
			return ans, nil
		},
	}}
	e := newEnv(t, runtime.Options{Modules: mods}, worker.Options{})
	ctx := context.Background()
	h, err := e.ws.Runtime().Exec(ctx, `import { ok } from "ws:ask";
console.log("asking");
const a = await ok("deploy?");
console.log("answer " + a);
export default () => a;`, runtime.ExecOptions{OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	var pending []runtime.PendingCall
	for len(pending) == 0 {
		if pending, err = e.ws.Runtime().Pending(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if string(pending[0].Payload) != `{"q":"deploy?"}` {
		t.Fatalf("payload %s", pending[0].Payload)
	}
	if err := e.ws.Runtime().Respond(ctx, h.ID, pending[0].CallID, "yes"); err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusCompleted || string(res.Stdout) != "asking\nanswer yes\n" || string(res.Value) != `"yes"` {
		t.Fatalf("%s %q %s %q", res.Status, res.Stdout, res.Value, res.Stderr)
	}
}

// TestCrashUnderReplayUsesAttempts: a program that crashes its worker
// every time is an interruption each time under the replay policy: it
// resumes until it has no attempts left, then fails.
func TestCrashUnderReplayUsesAttempts(t *testing.T) {
	e := newEnv(t, deepParse, worker.Options{})
	res := e.run(`console.log("before"); const n = 3e6; JSON.parse("[".repeat(n) + "]".repeat(n));`,
		runtime.ExecOptions{OnInterrupt: runtime.PolicyReplay})
	const want = "Execution was interrupted too often: it has no attempts left (MaxAttempts 3)."
	if res.Status != runtime.StatusFailed || res.Error != want || string(res.Stdout) != "before\n" {
		t.Fatalf("%s %q stdout=%q stderr=%q", res.Status, res.Error, res.Stdout, res.Stderr)
	}
	e.healthy()
}

// TestWorkerThatDoesNotStart: a worker command that is not a worker fails
// the run with the reason, and nothing else.
func TestWorkerThatDoesNotStart(t *testing.T) {
	e := newEnv(t, runtime.Options{}, worker.Options{Command: []string{"/bin/sh", "-c", "echo not a worker >&2"}})
	res := e.run(`export default () => 1`, runtime.ExecOptions{})
	const want = "the sandbox process could not start: the worker /bin/sh did not start: EOF: not a worker"
	if res.Status != runtime.StatusFailed || res.Error != want {
		t.Fatalf("%s %q", res.Status, res.Error)
	}
	if s := e.pool.Stats(); s.StartFailures == 0 || s.Started != 0 || s.Runs != 0 {
		t.Errorf("pool stats of a worker that does not start: %+v", s)
	}
}

// TestConcurrentRuns: more runs at once than idle workers each get a
// worker of their own.
func TestConcurrentRuns(t *testing.T) {
	e := newEnv(t, runtime.Options{}, worker.Options{Size: 1})
	ctx := context.Background()
	var hs []*runtime.Handle
	for i := range 8 {
		h, err := e.ws.Runtime().Exec(ctx, `export default async (x) => { await new Promise((r) => setTimeout(r, 50)); return x.i * 2; }`,
			runtime.ExecOptions{Input: map[string]int{"i": i}})
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	for i, h := range hs {
		res, err := h.Result(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != runtime.StatusCompleted || string(res.Value) != fmt.Sprint(i*2) {
			t.Fatalf("run %d: %s %s %q", i, res.Status, res.Value, res.Stderr)
		}
	}
}

// TestWorkerKilledRestartPolicy: under the restart policy, the run whose
// worker is killed runs again from the beginning and completes, its first
// attempt's output kept.
func TestWorkerKilledRestartPolicy(t *testing.T) {
	ready := make(chan struct{}, 1)
	mods := map[string]runtime.Module{"ws:sig": {
		"ready": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			ready <- struct{}{}
			return nil, nil
		},
	}}
	e := newEnv(t, runtime.Options{Modules: mods}, worker.Options{})
	ctx := context.Background()
	h, err := e.ws.Runtime().Exec(ctx, `import fs from "node:fs";
import { ready } from "ws:sig";
fs.appendFileSync("starts", "x");
const n = fs.readFileSync("starts", "utf8").length;
console.log("start " + n);
if (n === 1) { await ready(); await new Promise((r) => setTimeout(r, 60000)); }
console.log("done");`, runtime.ExecOptions{OnInterrupt: runtime.PolicyRestart})
	if err != nil {
		t.Fatal(err)
	}
	<-ready
	if b := e.pool.Busy(); len(b) != 1 || syscall.Kill(b[0], syscall.SIGKILL) != nil {
		t.Fatalf("busy workers %v", b)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusCompleted || string(res.Stdout) != "start 1\nstart 2\ndone\n" {
		t.Fatalf("%s %q %q", res.Status, res.Stdout, res.Stderr)
	}
}
