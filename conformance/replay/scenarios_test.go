package replay_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
)

// scenario is one testdata/*.txtar: a module, its input and host-module
// fakes, and what an uninterrupted run gives.
//
//	-- main.js --          the module (run with cwd /workspace)
//	-- scenario.json --    {"input": ..., "modules": {"ws:m": {"fn": fakeSpec}},
//	                        "restart": "same" | "any"}
//	-- files/PATH --       a file at /workspace/PATH before the run
//	-- want/result.json -- the result (placeholders allowed, see matcher)
//	-- want/stdout --      the output (placeholders and <<for>> lines allowed)
//	-- want/stderr --      (default: empty)
//	-- want/files/PATH --  a file the run must leave at /workspace/PATH
//
// "restart": "any" says the module is not idempotent, so that a restart
// (which runs it again over the files its first attempt changed) may end
// otherwise; by default a restart must give the same result.
type scenario struct {
	name       string
	source     string
	input      json.RawMessage
	modules    map[string]map[string]fakeSpec
	restart    string
	files      map[string]string
	wantResult string
	wantStdout string
	wantStderr string
	wantFiles  map[string]string
}

func loadScenarios(t *testing.T) []*scenario {
	t.Helper()
	names, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(names) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	var out []*scenario
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		_, files, _ := parseTxtar(string(b))
		sc := &scenario{name: strings.TrimSuffix(filepath.Base(n), ".txtar"), source: files["main.js"],
			files: map[string]string{}, wantFiles: map[string]string{}, wantResult: files["want/result.json"],
			wantStdout: expandFor(files["want/stdout"]), wantStderr: files["want/stderr"]}
		if sc.source == "" || sc.wantResult == "" {
			t.Fatalf("%s: main.js and want/result.json are required", n)
		}
		var cfg struct {
			Input   json.RawMessage                `json:"input"`
			Modules map[string]map[string]fakeSpec `json:"modules"`
			Restart string                         `json:"restart"`
		}
		if s := files["scenario.json"]; s != "" {
			if err := json.Unmarshal([]byte(s), &cfg); err != nil {
				t.Fatalf("%s: scenario.json: %v", n, err)
			}
		}
		sc.input, sc.modules, sc.restart = cfg.Input, cfg.Modules, cfg.Restart
		for name, data := range files {
			if p, ok := strings.CutPrefix(name, "files/"); ok {
				sc.files[p] = data
			}
			if p, ok := strings.CutPrefix(name, "want/files/"); ok {
				sc.wantFiles[p] = data
			}
		}
		out = append(out, sc)
	}
	return out
}

// snapshotDB copies the committed state of the database src to dst.
func snapshotDB(src, dst string) error {
	c, err := sqlite3.Open(src)
	if err != nil {
		return err
	}
	defer c.Close()
	c.BusyTimeout(5 * time.Second)
	s, _, err := c.Prepare(`VACUUM INTO ?`)
	if err != nil {
		return err
	}
	defer s.Close()
	s.BindText(1, dst)
	return s.Exec()
}

// outcome is what one run of a scenario left.
type outcome struct {
	res      *runtime.Result
	calls    int64 // host calls the (first) attempt made
	invoked  int   // real executions of the fakes, over all attempts
	inFlight int   // fake calls executed before the crash and not journaled
	files    map[string]string
}

// runScenario runs sc under policy; with k ≥ 0 it crashes the run right
// after its k-th call returns and resumes it in a fresh workspace over the
// copy of the database the crash left.
func runScenario(t *testing.T, sc *scenario, policy runtime.Policy, k int64) *outcome {
	t.Helper()
	dir := t.TempDir()
	db, snap := filepath.Join(dir, "w.db"), filepath.Join(dir, "crash.db")
	svc := newFakeService(sc.modules)
	var (
		once    sync.Once
		tripped = make(chan error, 1)
		before  map[string]bool
		calls   atomic.Int64
	)
	trip := func(n int64) {
		if n > calls.Load() {
			calls.Store(n)
		}
		if k >= 0 && n == k {
			once.Do(func() {
				before = svc.freeze()
				tripped <- snapshotDB(db, snap)
			})
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ws, err := nook.Open(ctx, db, nook.WithBackends(&tripBackend{inner: js.New(js.Options{}), trip: trip}),
		nook.WithModules(svc.modules(true)))
	if err != nil {
		t.Fatal(err)
	}
	for p, data := range sc.files {
		full := "/workspace/" + p
		if err := ws.FS().MkdirAll(ctx, path.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := ws.FS().WriteFile(ctx, full, []byte(data), nil); err != nil {
			t.Fatal(err)
		}
	}
	opts := runtime.ExecOptions{ID: "s", Input: sc.input, OnInterrupt: policy, Timeout: 5 * time.Minute}
	if sc.input == nil {
		opts.Input = nil
	}
	h, err := ws.Runtime().Exec(ctx, sc.source, opts)
	if err != nil {
		t.Fatal(err)
	}
	if k < 0 {
		res, err := h.Result(ctx)
		if err != nil {
			t.Fatal(err)
		}
		o := &outcome{res: res, calls: calls.Load(), invoked: svc.total(), files: workspaceFiles(t, ws)}
		ws.Close()
		integrityCheck(t, db)
		return o
	}
	finished := make(chan error, 1)
	go func() { finished <- h.Wait(ctx) }()
	select {
	case err := <-tripped:
		if err != nil {
			t.Fatalf("copying the database: %v", err)
		}
	case <-finished:
		// The crash may be under way (a call failed by it ended the run).
		select {
		case err := <-tripped:
			if err != nil {
				t.Fatalf("copying the database: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("the run finished after %d calls, before call %d", calls.Load(), k)
		}
	}
	ws.Close()
	integrityCheck(t, db)

	// The journal the crash left.
	jcalls, _ := journalState(t, snap, "s")
	done := map[string]bool{}
	for _, c := range jcalls {
		if c.Done {
			done[runtime.CallID("s", c.Seq)] = true
		}
	}
	o := &outcome{calls: k}
	for id := range before {
		if !done[id] {
			o.inFlight++
		}
	}

	// A new process opens the file: its clock is past the crashed
	// runtime's lease.
	later := func() time.Time { return time.Now().Add(2 * time.Minute) }
	ws2, err := nook.Open(ctx, snap, nook.WithBackends(js.New(js.Options{})), nook.WithModules(svc.modules(false)),
		nook.WithClock(later))
	if err != nil {
		t.Fatal(err)
	}
	h2, err := ws2.Runtime().GetExec(ctx, "s", runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if o.res, err = h2.Result(ctx); err != nil {
		t.Fatal(err)
	}
	o.invoked = svc.total()
	o.files = workspaceFiles(t, ws2)
	ws2.Close()
	integrityCheck(t, snap)
	return o
}

// check compares a completed run's result, output and files with sc's
// expectations; with tail, only the end of the output must match (a
// restart prints again what its first attempt printed).
func (sc *scenario) check(t *testing.T, o *outcome, tail bool) {
	t.Helper()
	res := o.res
	if res.Status != runtime.StatusCompleted {
		t.Fatalf("status %s: %s\nstderr:\n%s\nstdout:\n%s", res.Status, res.Error, res.Stderr, res.Stdout)
	}
	m := newMatcher()
	stdout := string(res.Stdout)
	if tail {
		n := strings.Count(sc.wantStdout, "\n")
		lines := strings.SplitAfter(stdout, "\n")
		if len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if len(lines) >= n {
			stdout = strings.Join(lines[len(lines)-n:], "")
		}
	}
	if err := m.match(sc.wantStdout, stdout, false); err != nil {
		t.Errorf("stdout: %v", err)
	}
	if err := m.match(sc.wantStderr, string(res.Stderr), false); err != nil {
		t.Errorf("stderr: %v", err)
	}
	got, err := canonicalJSON(res.Value)
	if err != nil {
		t.Fatalf("value %q: %v", res.Value, err)
	}
	want, err := canonicalJSON([]byte(sc.wantResult))
	if err != nil {
		t.Fatalf("want/result.json: %v", err)
	}
	if err := m.match(want, got, true); err != nil {
		t.Errorf("result: %v", err)
	}
	for p, want := range sc.wantFiles {
		if got, ok := o.files["workspace/"+p]; !ok || got != want {
			t.Errorf("file %s: %q (exists: %v), want %q", p, got, ok, want)
		}
	}
}

// TestScenarios runs each scenario uninterrupted, then crashes it after
// each of its calls (k = 0 is before the first) under each policy and
// resumes it: replay must give the uninterrupted result, output and files
// with the fakes executed as often (plus the calls in flight at the crash,
// which were executed and never journaled); restart must give the same
// result (for an idempotent module) with the fakes executed at least as
// often; fail must fail the run with the interruption's reason. In -short
// mode only the crashes before the first call, in the middle and after the
// last call are tried.
func TestScenarios(t *testing.T) {
	var crashes, inFlight int
	for _, sc := range loadScenarios(t) {
		t.Run(sc.name, func(t *testing.T) {
			ref := runScenario(t, sc, runtime.PolicyReplay, -1)
			sc.check(t, ref, false)
			if t.Failed() {
				return
			}
			ks := make([]int64, 0, ref.calls+1)
			for k := int64(0); k <= ref.calls; k++ {
				if testing.Short() && k != 0 && k != ref.calls/2 && k != ref.calls {
					continue
				}
				ks = append(ks, k)
			}
			for _, k := range ks {
				for _, policy := range []runtime.Policy{runtime.PolicyReplay, runtime.PolicyRestart, runtime.PolicyFail} {
					t.Run(fmt.Sprintf("%s-after-%d-of-%d", policy, k, ref.calls), func(t *testing.T) {
						o := runScenario(t, sc, policy, k)
						crashes++
						switch policy {
						case runtime.PolicyReplay:
							inFlight += o.inFlight
							sc.check(t, o, false)
							if want := ref.invoked + o.inFlight; o.invoked != want {
								t.Errorf("fakes executed %d times, want %d (%d uninterrupted, %d in flight at the crash)",
									o.invoked, want, ref.invoked, o.inFlight)
							}
						case runtime.PolicyRestart:
							if sc.restart == "any" {
								if o.res.Status == runtime.StatusRunning {
									t.Errorf("status %s", o.res.Status)
								}
							} else {
								sc.check(t, o, true)
							}
							if o.invoked < ref.invoked {
								t.Errorf("fakes executed %d times, fewer than uninterrupted (%d)", o.invoked, ref.invoked)
							}
						case runtime.PolicyFail:
							want := "Execution was interrupted: the process running it stopped before it finished."
							if o.res.Status != runtime.StatusFailed || o.res.Error != want ||
								!strings.HasSuffix(string(o.res.Stderr), want+"\n") {
								t.Errorf("status %s error %q stderr %q", o.res.Status, o.res.Error, o.res.Stderr)
							}
						}
					})
				}
			}
		})
	}
	t.Logf("scenario crashes: %d, fake calls in flight at a crash: %d", crashes, inFlight)
}
