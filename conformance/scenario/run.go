package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/runtime/wasm"
)

// Options configure how scenarios run.
type Options struct {
	// Backends returns fresh backends for each workspace a case opens
	// (default: js, sh and wasm with their default options).
	Backends func() []runtime.Backend
	// Host, when set, adds real host modules to every workspace a case
	// opens, next to the scenario's fakes: it returns them and a function
	// the runner calls with the workspace once open (to bind modules that
	// need it, such as tools.LateModule's).
	Host func() (map[string]runtime.Module, func(*nook.Workspace))
	// Interrupt also crashes each scenario after each of its host calls
	// (and before the first) and resumes it under each of Policies.
	Interrupt bool
	// Policies are the interrupt policies tried (default replay, restart,
	// fail).
	Policies []runtime.Policy
	// Short tries only the crashes before the first call, after the
	// middle one and after the last.
	Short bool
	// Dir holds the cases' databases (default: a temporary directory,
	// removed afterwards).
	Dir string
	// Timeout bounds one case (default one minute).
	Timeout time.Duration
	// Isolation runs the cases' programs in another tier
	// (runtime.Options.Isolation; nil: the runtime's default).
	Isolation runtime.Isolator
}

func (o *Options) backends() []runtime.Backend {
	if o.Backends != nil {
		return o.Backends()
	}
	return []runtime.Backend{js.New(js.Options{}), shell.New(shell.Options{}), wasm.New(wasm.Options{})}
}

// Case is one run of a scenario: uninterrupted (After < 0), or crashed
// after After of its host calls and resumed under Policy.
type Case struct {
	Name     string         // "uninterrupted", "replay-after-2-of-5", ...
	Policy   runtime.Policy // the run's interrupt policy
	After    int64
	Problems []string // what did not match; none: the case passed
	Duration time.Duration
	// Resume is how long the resuming process took, from opening the
	// database the crash left to the run's end (interrupted cases).
	Resume time.Duration
}

// Passed reports whether the case met its scenario's expectations.
func (c *Case) Passed() bool { return len(c.Problems) == 0 }

// Report is what running one scenario showed.
type Report struct {
	Scenario string
	Calls    int64 // host calls of the uninterrupted run
	Cases    []*Case
	// Result is the uninterrupted run's result (for --update).
	Result *runtime.Result
	// Files are the workspace's files under /workspace after the
	// uninterrupted run, by path under /workspace.
	Files map[string]string
}

// Passed reports whether every case passed.
func (r *Report) Passed() bool {
	for _, c := range r.Cases {
		if !c.Passed() {
			return false
		}
	}
	return true
}

// Run runs sc uninterrupted and, with opts.Interrupt, crashed after each of
// its calls under each policy. An error means the case could not be run at
// all (a database could not be opened); failed expectations are in the
// report.
func Run(ctx context.Context, sc *Scenario, opts Options) (*Report, error) {
	if opts.Dir == "" {
		dir, err := os.MkdirTemp("", "nook-scenario-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		opts.Dir = dir
	}
	rep := &Report{Scenario: sc.Name}
	start := time.Now()
	ref, err := runCase(ctx, sc, &opts, runtime.PolicyReplay, -1, "ref")
	if err != nil {
		return nil, err
	}
	rep.Calls, rep.Result, rep.Files = ref.calls, ref.res, ref.files
	c := &Case{Name: "uninterrupted", Policy: runtime.PolicyReplay, After: -1, Problems: sc.check(ref, false),
		Duration: time.Since(start)}
	rep.Cases = append(rep.Cases, c)
	if !opts.Interrupt || !c.Passed() {
		return rep, nil
	}
	policies := opts.Policies
	if len(sc.Config.Policies) > 0 {
		policies = sc.Config.Policies
	}
	if len(policies) == 0 {
		policies = []runtime.Policy{runtime.PolicyReplay, runtime.PolicyRestart, runtime.PolicyFail}
	}
	for k := int64(0); k <= ref.calls; k++ {
		if opts.Short && k != 0 && k != ref.calls/2 && k != ref.calls {
			continue
		}
		for _, p := range policies {
			name := fmt.Sprintf("%s-after-%d-of-%d", p, k, ref.calls)
			start := time.Now()
			o, err := runCase(ctx, sc, &opts, p, k, name)
			c := &Case{Name: name, Policy: p, After: k}
			if err != nil {
				c.Problems = []string{err.Error()}
			} else {
				c.Problems = sc.checkInterrupted(ref, o, p)
				c.Resume = o.resume
			}
			c.Duration = time.Since(start)
			rep.Cases = append(rep.Cases, c)
		}
	}
	return rep, nil
}

// checkInterrupted compares a crashed and resumed case with the
// uninterrupted one.
func (sc *Scenario) checkInterrupted(ref, o *outcome, p runtime.Policy) []string {
	switch p {
	case runtime.PolicyReplay:
		probs := sc.check(o, false)
		if want := ref.invoked + o.inFlight; o.invoked != want {
			probs = append(probs, fmt.Sprintf("fakes executed %d times, want %d (%d uninterrupted, %d in flight at the crash)",
				o.invoked, want, ref.invoked, o.inFlight))
		}
		return probs
	case runtime.PolicyRestart:
		var probs []string
		if sc.Config.Restart == "any" {
			if o.res.Status == runtime.StatusRunning {
				probs = append(probs, fmt.Sprintf("status %s", o.res.Status))
			}
		} else if probs = sc.check(o, true); len(probs) > 0 {
			probs = append(probs, restartHint)
		}
		if o.invoked < ref.invoked {
			probs = append(probs, fmt.Sprintf("fakes executed %d times, fewer than uninterrupted (%d)", o.invoked, ref.invoked))
		}
		return probs
	default:
		want := "Execution was interrupted: the process running it stopped before it finished."
		if o.res.Status != runtime.StatusFailed || o.res.Error != want || !strings.HasSuffix(string(o.res.Stderr), want+"\n") {
			return []string{fmt.Sprintf("fail policy: status %s error %q stderr %q", o.res.Status, o.res.Error, o.res.Stderr)}
		}
		return nil
	}
}

// restartHint follows a restart case that did not give the uninterrupted
// end: it names the settings that say so.
const restartHint = `hint: a restart runs the program again over the files its first attempt changed, so a program ` +
	`that is not idempotent (it appends to a file, reads a file it then changes, moves or removes one) ends otherwise. ` +
	`If that is expected, say "restart": "any" in scenario.json (restart cases then check only that the run ends), ` +
	`or leave restart out of its "policies" (["replay", "fail"]).`

// runTimeout is a case's run timeout: the resuming process's clock is two
// minutes past the crashed one's (so that its lease is dead), and a run's
// timeout counts from its first start.
const runTimeout = 5 * time.Minute

// outcome is what one run of a scenario left.
type outcome struct {
	res      *runtime.Result
	calls    int64 // host calls the (first) attempt made
	invoked  int   // real executions of the fakes, over all attempts
	inFlight int   // fake calls executed before the crash and not journaled
	files    map[string]string
	resume   time.Duration // opening the crashed database to the run's end
}

// guestClock is a scenario's deterministic clock: the n-th read gets the
// n-th of reads (nanoseconds after start); past them, and without any, it
// goes on a millisecond a read.
func guestClock(start time.Time, reads []int64) func() time.Time {
	var n atomic.Int64
	return func() time.Time {
		i := n.Add(1) - 1
		if i < int64(len(reads)) {
			return start.Add(time.Duration(reads[i]))
		}
		var last time.Duration
		if len(reads) > 0 {
			last, i = time.Duration(reads[len(reads)-1]), i-int64(len(reads))+1
		}
		return start.Add(last + time.Duration(i)*time.Millisecond)
	}
}

// open opens a case's workspace.
func (sc *Scenario) open(ctx context.Context, opts *Options, db string, backends []runtime.Backend, svc *fakeService,
	fetch *fakeFetch, crashed bool, now func() time.Time) (*nook.Workspace, error) {
	start, _ := sc.clock()
	mods := svc.modules(crashed)
	var bind func(*nook.Workspace)
	if opts.Host != nil {
		var extra map[string]runtime.Module
		extra, bind = opts.Host()
		for k, v := range extra {
			// A module the scenario recorded is answered by its fakes:
			// what the recorded run got, not what the real one would
			// say now.
			if _, faked := mods[k]; !faked {
				mods[k] = v
			}
		}
	}
	ro := runtime.Options{Backends: backends, Modules: mods, GuestClock: guestClock(start, sc.Config.ClockReads), Now: now,
		Isolation: opts.Isolation, VirtualTime: true,
		OnWait: func(pc runtime.PendingCall) { go sc.approve(context.WithoutCancel(ctx), db, pc) }}
	if len(sc.Config.Fetch) > 0 {
		ro.Outbound = &runtime.Outbound{Transport: fetch, AllowHosts: fetch.hosts()}
	}
	ws, err := nook.Open(ctx, db, nook.WithRuntime(ro))
	if err != nil {
		return nil, err
	}
	if bind != nil {
		bind(ws)
	}
	registry.Store(db, ws)
	// Calls that were waiting when the crashed process went: answer them
	// here, as a person would from any process.
	pending, err := ws.Runtime().Pending(ctx)
	if err != nil {
		ws.Close()
		return nil, err
	}
	for _, pc := range pending {
		go sc.approve(context.WithoutCancel(ctx), db, pc)
	}
	return ws, nil
}

// registry maps a case's database to its open workspace, so that an
// approval arriving through OnWait is answered by the runtime that waits.
var registry sync.Map

// approve answers a call that waits for an approval with its fake's first
// result, as a person answering through Runtime.Respond would.
func (sc *Scenario) approve(ctx context.Context, db string, pc runtime.PendingCall) {
	v, ok := registry.Load(db)
	if !ok {
		return
	}
	ws := v.(*nook.Workspace)
	var answer any
	for _, fns := range sc.Config.Modules {
		for _, f := range fns {
			if f.Wait == nil {
				continue
			}
			if b, _ := json.Marshal(f.Wait); jsonEqual(b, pc.Payload) {
				answer = f.Answer
			}
		}
	}
	ws.Runtime().Respond(ctx, pc.RunID, pc.CallID, answer)
}

// runCase runs sc under policy; with k ≥ 0 it crashes the run right after
// its k-th call returns and resumes it in a fresh workspace over the copy
// of the database the crash left.
func runCase(ctx context.Context, sc *Scenario, opts *Options, policy runtime.Policy, k int64, name string) (*outcome, error) {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	dir := filepath.Join(opts.Dir, sc.Name+"-"+name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	db, snap := filepath.Join(dir, "w.db"), filepath.Join(dir, "crash.db")
	defer registry.Delete(db)
	defer registry.Delete(snap)
	svc := newFakeService(sc.Config.Modules)
	fetch := newFakeFetch(sc.Config.Fetch)
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
	var backends []runtime.Backend
	for _, b := range opts.backends() {
		backends = append(backends, &tripBackend{inner: b, trip: trip})
	}
	ws, err := sc.open(ctx, opts, db, backends, svc, fetch, true, nil)
	if err != nil {
		return nil, err
	}
	closeWS := func() {
		if ws != nil {
			ws.Close()
			ws = nil
		}
	}
	defer closeWS()
	for p, data := range sc.Files {
		full := "/workspace/" + p
		if err := ws.FS().MkdirAll(ctx, path.Dir(full), 0o755); err != nil {
			return nil, err
		}
		if err := ws.FS().WriteFile(ctx, full, []byte(data), nil); err != nil {
			return nil, err
		}
	}
	seed, _ := sc.seed()
	eo := runtime.ExecOptions{ID: "s", Backend: sc.Config.Backend, Input: sc.Config.Input, Env: sc.Config.Env,
		Cwd: sc.Config.Cwd, Args: sc.Config.Args, Stdin: []byte(sc.Config.Stdin), OnInterrupt: policy,
		Timeout: runTimeout, Seed: seed, Timers: sc.Config.Timers}
	if sc.Config.Input == nil {
		eo.Input = nil
	}
	source := string(sc.Source)
	h, err := ws.Runtime().Exec(ctx, source, eo)
	if err != nil {
		return nil, fmt.Errorf("exec: %w", err)
	}
	if k < 0 {
		res, err := h.Result(ctx)
		if err != nil {
			return nil, err
		}
		if err := wholeOutput(ctx, ws, res); err != nil {
			return nil, err
		}
		files, err := workspaceFiles(ws)
		if err != nil {
			return nil, err
		}
		o := &outcome{res: res, calls: calls.Load(), invoked: svc.total(), files: files}
		closeWS()
		return o, integrityCheck(db)
	}
	finished := make(chan error, 1)
	go func() { finished <- h.Wait(ctx) }()
	select {
	case err := <-tripped:
		if err != nil {
			return nil, fmt.Errorf("copying the database: %w", err)
		}
	case <-finished:
		// The crash may be under way (a call failed by it ended the run).
		select {
		case err := <-tripped:
			if err != nil {
				return nil, fmt.Errorf("copying the database: %w", err)
			}
		case <-time.After(5 * time.Second):
			return nil, fmt.Errorf("the run finished after %d calls, before call %d", calls.Load(), k)
		}
	}
	closeWS()
	if err := integrityCheck(db); err != nil {
		return nil, err
	}

	// The journal the crash left.
	done, err := doneCalls(snap, "s")
	if err != nil {
		return nil, err
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
	resumed := time.Now()
	ws, err = sc.open(ctx, opts, snap, opts.backends(), svc, fetch, false, later)
	if err != nil {
		return nil, err
	}
	h2, err := ws.Runtime().GetExec(ctx, "s", runtime.GetOptions{})
	if err != nil {
		return nil, err
	}
	if o.res, err = h2.Result(ctx); err != nil {
		return nil, err
	}
	o.resume = time.Since(resumed)
	if err := wholeOutput(ctx, ws, o.res); err != nil {
		return nil, err
	}
	o.invoked = svc.total()
	if o.files, err = workspaceFiles(ws); err != nil {
		return nil, err
	}
	closeWS()
	return o, integrityCheck(snap)
}

// check compares a finished run's status, result, output and files with
// sc's expectations; with tail, only the end of the output must match (a
// restart prints again what its first attempt printed).
func (sc *Scenario) check(o *outcome, tail bool) []string {
	var probs []string
	res := o.res
	wantStatus, wantCode := sc.wantStatus()
	if string(res.Status) != wantStatus || res.ExitCode != wantCode {
		probs = append(probs, fmt.Sprintf("status %s (exit %d), want %s (exit %d): %s\nstderr:\n%s", res.Status, res.ExitCode,
			wantStatus, wantCode, res.Error, res.Stderr))
		return probs
	}
	m := newMatcher()
	stdout := string(res.Stdout)
	if tail {
		n := strings.Count(sc.WantStdout, "\n")
		lines := strings.SplitAfter(stdout, "\n")
		if len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if len(lines) >= n {
			stdout = strings.Join(lines[len(lines)-n:], "")
		}
	}
	if err := m.matchText(sc.WantStdout, stdout); err != nil {
		probs = append(probs, describe("stdout", err))
	}
	if err := m.matchText(sc.WantStderr, string(res.Stderr)); err != nil {
		probs = append(probs, describe("stderr", err))
	}
	switch {
	case sc.WantValue == nil && len(res.Value) > 0 && string(res.Value) != "null":
		probs = append(probs, fmt.Sprintf("value %s, want none (add want/result.json)", res.Value))
	case sc.WantValue != nil:
		got, err := canonicalJSON(res.Value)
		if err != nil {
			probs = append(probs, fmt.Sprintf("value %q: %v", res.Value, err))
			break
		}
		want, err := canonicalJSON([]byte(*sc.WantValue))
		if err != nil {
			probs = append(probs, fmt.Sprintf("want/result.json: %v", err))
			break
		}
		if err := m.match(want, got, true); err != nil {
			probs = append(probs, describe("result.json", err))
		}
	}
	for _, p := range sortedKeys(sc.WantFiles) {
		want := sc.WantFiles[p]
		if got, ok := o.files[p]; !ok {
			probs = append(probs, fmt.Sprintf("file %s: missing, want %q", p, want))
		} else if err := m.matchText(want, got); err != nil {
			probs = append(probs, describe("files/"+p, err))
		}
	}
	return probs
}

// wholeOutput puts the whole of each stream of a run whose output was
// spilled to files into its result.
func wholeOutput(ctx context.Context, ws *nook.Workspace, res *runtime.Result) error {
	if !res.Truncated {
		return nil
	}
	for _, s := range []struct {
		path string
		dst  *[]byte
	}{{res.StdoutPath, &res.Stdout}, {res.StderrPath, &res.Stderr}} {
		if s.path == "" {
			continue
		}
		b, err := ws.FS().ReadFile(ctx, s.path)
		if err != nil {
			return fmt.Errorf("reading the spilled output: %w", err)
		}
		*s.dst = b
	}
	return nil
}

// workspaceFiles returns every file under /workspace, by path under it.
func workspaceFiles(ws *nook.Workspace) (map[string]string, error) {
	files := map[string]string{}
	fsys := ws.FS().IOFS()
	err := fs.WalkDir(fsys, "workspace", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		files[strings.TrimPrefix(p, "workspace/")] = string(b)
		return err
	})
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	return files, err
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

// integrityCheck opens the database file read-only, with SQLite directly,
// and fails unless PRAGMA integrity_check says ok.
func integrityCheck(db string) error {
	c, err := sqlite3.OpenFlags(db, sqlite3.OPEN_READONLY)
	if err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	defer c.Close()
	c.BusyTimeout(2 * time.Second)
	s, _, err := c.Prepare(`PRAGMA integrity_check`)
	if err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	defer s.Close()
	var msgs []string
	for s.Step() {
		msgs = append(msgs, s.ColumnText(0))
	}
	if err := s.Err(); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	if len(msgs) != 1 || msgs[0] != "ok" {
		return fmt.Errorf("integrity check of %s: %q", db, msgs)
	}
	return nil
}

// doneCalls reads the ids of the calls journaled as done (or waiting) for run id, with
// SQLite directly (the workspace is not open).
func doneCalls(db, id string) (map[string]bool, error) {
	c, err := sqlite3.Open(db)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	// A call waiting for an answer is as good as done: its wait is stored.
	s, _, err := c.Prepare(`SELECT seq FROM journal_calls WHERE run = ?1 AND done
		UNION SELECT seq FROM journal_waits WHERE run = ?1`)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	s.BindText(1, id)
	done := map[string]bool{}
	for s.Step() {
		done[runtime.CallID(id, s.ColumnInt64(0))] = true
	}
	return done, s.Err()
}

// canonicalValue is a JSON value re-encoded canonically, for --update.
func canonicalValue(v json.RawMessage) string {
	s, err := canonicalJSON(v)
	if err != nil {
		return string(v)
	}
	return s + "\n"
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(a, b []byte) bool {
	x, err1 := canonicalJSON(a)
	y, err2 := canonicalJSON(b)
	return err1 == nil && err2 == nil && x == y
}
