package replay_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
)

// TestMain lets the test binary be the process that a crash test kills:
// with NOOK_CRASH_CHILD set it opens the workspace NOOK_CRASH_DB, starts
// crashModule as run "c" under the policy NOOK_CRASH_POLICY, prints
// "started" and waits for the run to end.
func TestMain(m *testing.M) {
	if os.Getenv("NOOK_CRASH_CHILD") != "" {
		ctx := context.Background()
		ws, err := openCrashWS(os.Getenv("NOOK_CRASH_DB"), os.Getenv("NOOK_CRASH_SIDE"), "child", false)
		if err != nil {
			panic(err)
		}
		h, err := ws.Runtime().Exec(ctx, crashModule, runtime.ExecOptions{ID: "c",
			Input: map[string]any{"name": "crash"}, OnInterrupt: runtime.Policy(os.Getenv("NOOK_CRASH_POLICY"))})
		if err != nil {
			panic(err)
		}
		os.Stdout.WriteString("started\n")
		h.Wait(ctx)
		ws.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// crashModule does fs writes of every kind, host-module calls, timers (a
// chain, and one racing a slow host call), Promise.all over fs and module
// calls, and folds Math.random, crypto.randomUUID and Date.now into its
// output, a file and its result, printing all along. It runs ~350 ms.
const crashModule = `
import fs from "node:fs/promises";
import { record, slow } from "ws:ledger";

const pause = (ms) => new Promise((res) => setTimeout(res, ms));

export default async function (input) {
  const t0 = Date.now();
  const r0 = Math.random();
  console.log("start " + input.name + " t0=" + t0 + " r0=" + r0);
  await fs.mkdir("out/sub", { recursive: true });
  const ids = [];
  for (let i = 0; i < 4; i++) {
    await fs.writeFile("out/f" + i + ".txt", "file " + i + "\n");
    await fs.appendFile("out/log.txt", "step " + i + "\n");
    const rec = await record("step-" + i);
    ids.push(rec.id);
    console.log("step " + i + " call=" + rec.id);
    await pause(40);
  }
  const [a, body, , b] = await Promise.all([
    record("all-a"),
    fs.readFile("out/f1.txt", "utf8"),
    fs.appendFile("out/log.txt", "all\n"),
    record("all-b"),
  ]);
  ids.push(a.id, b.id);
  console.log("all " + a.id + " " + JSON.stringify(body) + " " + b.id);
  const order = [];
  await Promise.all([
    pause(25).then(() => order.push("timer")),
    slow(25).then((s) => { order.push("call"); ids.push(s.id); }),
  ]);
  console.log("race order=" + order.join("+"));
  await new Promise((done) => {
    let n = 0;
    const tick = () => {
      n++;
      console.log("tick " + n);
      if (n === 4) done(); else setTimeout(tick, 15);
    };
    setTimeout(tick, 15);
  });
  await fs.rename("out/f0.txt", "out/sub/moved.txt");
  await fs.unlink("out/f2.txt");
  const uuid = crypto.randomUUID();
  const r1 = Math.random();
  const t1 = Date.now();
  await fs.writeFile("rand.txt", r0 + " " + r1 + " " + uuid + " " + t0 + " " + t1);
  const c = await record("last");
  ids.push(c.id);
  const log = await fs.readFile("out/log.txt", "utf8");
  for (let i = 0; i < 10; i++) console.log("line " + i);
  console.log("end uuid=" + uuid + " r1=" + r1 + " t1=" + t1);
  return { name: input.name, t0, t1, r0, r1, uuid, order, ids, log,
    files: (await fs.readdir("out", { recursive: true })).sort() };
}`

// crashRandomKeys are the fields of crashModule's result and output that
// differ between two runs (clock, randomness, the race's outcome).
var crashRandomKeys = []string{"t0", "t1", "r0", "r1", "uuid", "order"}

var randomField = regexp.MustCompile(`\b(t0|t1|r0|r1|uuid|order)=(\S+)`)

// openCrashWS opens the workspace db with the JavaScript backend and
// ws:ledger, whose functions append "callID arg tag" to the host file
// side before doing anything else, so the test can count their real
// executions.
func openCrashWS(db, side, tag string, recover bool) (*nook.Workspace, error) {
	hit := func(c *runtime.CallContext, arg any) error {
		f, err := os.OpenFile(side, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = fmt.Fprintf(f, "%s %v %s\n", c.CallID, arg, tag)
		return err
	}
	ledger := runtime.Module{
		"record": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			if err := hit(c, args[0]); err != nil {
				return nil, err
			}
			return map[string]any{"id": c.CallID, "arg": args[0]}, nil
		},
		"slow": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			if err := hit(c, args[0]); err != nil {
				return nil, err
			}
			ms, _ := args[0].(float64)
			select {
			case <-time.After(time.Duration(ms) * time.Millisecond):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return map[string]any{"id": c.CallID}, nil
		},
	}
	return nook.Open(context.Background(), db, nook.WithBackends(js.New(js.Options{})),
		nook.WithModules(map[string]runtime.Module{"ws:ledger": ledger}),
		nook.WithRuntime(runtime.Options{Recover: recover}))
}

// crashRun is what a run of crashModule left: its result, output lines,
// workspace files and the executions of its host-module calls.
type crashRun struct {
	res   *runtime.Result
	value map[string]any
	lines []string
	files map[string]string
	execs map[string]int // call id → real executions
}

// readExecs counts the lines of the host file side by call id.
func readExecs(side string) map[string]int {
	execs := map[string]int{}
	b, _ := os.ReadFile(side)
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if id, _, ok := strings.Cut(l, " "); ok {
			execs[id]++
		}
	}
	return execs
}

// collect reads the run's outcome from ws (which it does not close).
func collect(t *testing.T, ws *nook.Workspace, res *runtime.Result, side string) *crashRun {
	t.Helper()
	cr := &crashRun{res: res, files: workspaceFiles(t, ws), execs: readExecs(side)}
	if out := strings.TrimSuffix(string(res.Stdout), "\n"); out != "" {
		cr.lines = strings.Split(out, "\n")
	}
	if len(res.Value) > 0 {
		if err := json.Unmarshal(res.Value, &cr.value); err != nil {
			t.Fatalf("value %s: %v", res.Value, err)
		}
	}
	return cr
}

// normalLines replaces the run-specific values of lines.
func normalLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = randomField.ReplaceAllString(l, "$1=*")
	}
	return out
}

// normalValue is the JSON of v without its run-specific fields.
func normalValue(v map[string]any) string {
	c := map[string]any{}
	for k, x := range v {
		if !slices.Contains(crashRandomKeys, k) {
			c[k] = x
		}
	}
	b, _ := json.Marshal(c)
	return string(b)
}

// checkConsistent checks that the run-specific values the run printed are
// those of its result and of rand.txt.
func checkConsistent(t *testing.T, cr *crashRun) {
	t.Helper()
	printed := map[string]string{}
	for _, l := range cr.lines {
		for _, m := range randomField.FindAllStringSubmatch(l, -1) {
			if old, ok := printed[m[1]]; ok && old != m[2] {
				t.Errorf("%s printed as %s and as %s", m[1], old, m[2])
			}
			printed[m[1]] = m[2]
		}
	}
	same := func(key string, text string) {
		v, ok := cr.value[key]
		if !ok {
			t.Errorf("result has no %s: %s", key, cr.res.Value)
			return
		}
		var want string
		switch x := v.(type) {
		case float64:
			f, err := strconv.ParseFloat(text, 64)
			if err != nil || f != x {
				t.Errorf("%s printed %s, result %v", key, text, x)
			}
			return
		case string:
			want = x
		case []any:
			parts := make([]string, len(x))
			for i, p := range x {
				parts[i] = fmt.Sprint(p)
			}
			want = strings.Join(parts, "+")
		}
		if want != text {
			t.Errorf("%s printed %s, result %s", key, text, want)
		}
	}
	for _, k := range crashRandomKeys {
		same(k, printed[k])
	}
	fields := strings.Fields(cr.files["workspace/rand.txt"])
	if len(fields) != 5 {
		t.Errorf("rand.txt %q", cr.files["workspace/rand.txt"])
		return
	}
	for i, k := range []string{"r0", "r1", "uuid", "t0", "t1"} {
		same(k, fields[i])
	}
}

// crashIterations is NOOK_CRASH_ITERATIONS, else 10 in -short mode and
// 200 otherwise (about 0.4 s each).
func crashIterations(t *testing.T) int {
	if s := os.Getenv("NOOK_CRASH_ITERATIONS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("NOOK_CRASH_ITERATIONS=%q: want a positive number", s)
		}
		return n
	}
	if testing.Short() {
		return 10
	}
	return 200
}

// crashStats sums up the iterations of TestCrash.
type crashStats struct {
	iterations, replay, fail                int
	beforeFirstCall, afterFirstCall, atEnd  int
	divergences, doubleExecutions, inFlight int
}

// TestCrash SIGKILLs a process running crashModule at a random moment and
// resumes the run in a fresh workspace (GetExec → Result, Runtime.Recover,
// or Options.Recover at open, in turn). Under the replay policy the run
// must finish with the result, output and files of an uninterrupted run,
// the clock and random values it printed before the crash in its result,
// and each host-module call executed exactly once, or twice only if the
// journal shows it in flight at the kill. Under the fail policy it must
// fail with the interruption's reason. The database must pass
// integrity_check after every iteration.
func TestCrash(t *testing.T) {
	n := crashIterations(t)
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("NOOK_CRASH_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("NOOK_CRASH_SEED=%q: %v", s, err)
		}
	}
	t.Logf("NOOK_CRASH_SEED=%d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	dir := t.TempDir()

	// The uninterrupted run, and how long it takes live.
	ref, live := uninterrupted(t, dir)
	t.Logf("uninterrupted run: %v, %d lines, %d calls", live, len(ref.lines), len(ref.execs))

	var st crashStats
	for i := range n {
		// One iteration in eight runs under the fail policy (all of them
		// with NOOK_CRASH_FAILONLY set).
		policy := runtime.PolicyReplay
		if i%8 == 7 || os.Getenv("NOOK_CRASH_FAILONLY") != "" {
			policy = runtime.PolicyFail
		}
		// Kill delays cover the whole run and a little past its end, with
		// the very start and the end drawn more often.
		var delay time.Duration
		switch x := rng.IntN(10); {
		case x == 0:
			delay = 0
		case x == 1:
			delay = live - 60*time.Millisecond + time.Duration(rng.IntN(120))*time.Millisecond
		default:
			delay = time.Duration(rng.Int64N(int64(live) * 11 / 10))
		}
		ok := t.Run(fmt.Sprintf("%03d-%s-%s", i, policy, delay.Round(time.Millisecond)), func(t *testing.T) {
			crashOnce(t, filepath.Join(dir, strconv.Itoa(i)), policy, delay, i%3, ref, &st)
		})
		if !ok {
			break
		}
	}
	t.Logf("crash summary: iterations=%d (replay %d, fail %d) kills before first call=%d after=%d after the end=%d "+
		"divergences=%d double executions=%d (of %d calls in flight at a kill) seed=%d",
		st.iterations, st.replay, st.fail, st.beforeFirstCall, st.afterFirstCall, st.atEnd,
		st.divergences, st.doubleExecutions, st.inFlight, seed)
	fmt.Printf("crash summary: iterations=%d kills before first call=%d after first call=%d after the end=%d "+
		"divergences=%d double executions=%d\n", st.iterations, st.beforeFirstCall, st.afterFirstCall, st.atEnd,
		st.divergences, st.doubleExecutions)
	if st.divergences > 0 {
		t.Errorf("%d divergences", st.divergences)
	}
}

// uninterrupted runs crashModule once in this process, under the replay
// policy, and returns what it left and how long it ran.
func uninterrupted(t *testing.T, dir string) (*crashRun, time.Duration) {
	db, side := filepath.Join(dir, "ref.db"), filepath.Join(dir, "ref.side")
	ws, err := openCrashWS(db, side, "ref", false)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	h, err := ws.Runtime().Exec(ctx, crashModule, runtime.ExecOptions{ID: "c",
		Input: map[string]any{"name": "crash"}, OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	live := time.Since(start)
	if res.Status != runtime.StatusCompleted || len(res.Stderr) > 0 {
		t.Fatalf("uninterrupted run: %s %s\n%s", res.Status, res.Error, res.Stderr)
	}
	ref := collect(t, ws, res, side)
	checkConsistent(t, ref)
	for id, n := range ref.execs {
		if n != 1 {
			t.Fatalf("uninterrupted run executed %s %d times", id, n)
		}
	}
	return ref, live
}

// crashOnce starts crashModule in a child process under policy, SIGKILLs it
// after delay, resumes the run (how: 0 GetExec, 1 Runtime.Recover, 2
// Options.Recover) and checks what it left against ref.
func crashOnce(t *testing.T, dir string, policy runtime.Policy, delay time.Duration, how int, ref *crashRun, st *crashStats) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	db, side := filepath.Join(dir, "w.db"), filepath.Join(dir, "side")
	killChild(t, db, side, policy, delay)

	// What the kill left: the journaled calls (replay policy) and whether
	// the run had finished.
	calls, finished := journalState(t, db, "c")
	done := map[string]bool{}
	for _, c := range calls {
		if c.Done {
			done[runtime.CallID("c", c.Seq)] = true
		}
	}
	childExecs := readExecs(side)
	st.iterations++
	switch {
	case finished:
		st.atEnd++
	case len(calls) == 0 && len(childExecs) == 0:
		st.beforeFirstCall++
	default:
		st.afterFirstCall++
	}
	if policy == runtime.PolicyReplay {
		st.replay++
	} else {
		st.fail++
	}

	// Resume in a fresh workspace.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ws, err := openCrashWS(db, side, "resumed", how == 2)
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			ws.Close()
		}
	}()
	rt := ws.Runtime()
	if how == 1 {
		if _, err := rt.Recover(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// how == 2: Options.Recover resumes the run in the background, and
	// the reader below races it (see TestRecoverRacesReader).
	h, err := rt.GetExec(ctx, "c", runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cr := collect(t, ws, res, side)
	if err := ws.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	closed = true
	defer integrityCheck(t, db)

	// A DivergenceError reaches the record as its message.
	if strings.Contains(res.Error, "replay diverged") {
		st.divergences++
	}
	if policy == runtime.PolicyFail && !finished {
		want := "Execution was interrupted: the process running it stopped before it finished."
		if res.Status != runtime.StatusFailed || res.Error != want || string(res.Stderr) != want+"\n" {
			t.Fatalf("fail policy: status %s error %q stderr %q", res.Status, res.Error, res.Stderr)
		}
		// What it printed is a beginning of the uninterrupted output.
		got, want2 := normalLines(cr.lines), normalLines(ref.lines)
		if len(got) > len(want2) || !slices.Equal(got, want2[:len(got)]) {
			t.Errorf("output is not a prefix of the uninterrupted run's:\n%s", res.Stdout)
		}
		for id, n := range cr.execs {
			if n > 1 {
				t.Errorf("fail policy: %s executed %d times", id, n)
			}
		}
		return
	}

	if res.Status != runtime.StatusCompleted || len(res.Stderr) > 0 {
		t.Fatalf("status %s error %q\nstderr %s\nstdout:\n%s", res.Status, res.Error, res.Stderr, res.Stdout)
	}
	if got, want := normalLines(cr.lines), normalLines(ref.lines); !slices.Equal(got, want) {
		t.Errorf("output:\n%s\nwant (modulo clock and randomness):\n%s", strings.Join(cr.lines, "\n"), strings.Join(ref.lines, "\n"))
	}
	if got, want := normalValue(cr.value), normalValue(ref.value); got != want {
		t.Errorf("result %s\nwant     %s", got, want)
	}
	checkConsistent(t, cr)
	for p, want := range ref.files {
		if p == "workspace/rand.txt" {
			continue
		}
		if got, ok := cr.files[p]; !ok || got != want {
			t.Errorf("file %s: %q, want %q", p, got, want)
		}
	}
	for p := range cr.files {
		if _, ok := ref.files[p]; !ok {
			t.Errorf("file %s should not exist", p)
		}
	}
	for id := range ref.execs {
		switch n := cr.execs[id]; {
		case n == 1:
		case n == 2 && !done[id] && childExecs[id] == 1:
			// In flight at the kill: executed, never journaled.
			st.doubleExecutions++
		default:
			t.Errorf("%s executed %d times (journaled before the kill: %v)", id, n, done[id])
		}
	}
	for id := range childExecs {
		if !finished && !done[id] {
			st.inFlight++
		}
	}
	for id := range cr.execs {
		if ref.execs[id] == 0 {
			t.Errorf("unexpected call %s", id)
		}
	}
}

// killChild starts crashModule as run "c" under policy in a child process
// on db, and SIGKILLs the child delay after the run started.
func killChild(t *testing.T, db, side string, policy runtime.Policy, delay time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "NOOK_CRASH_CHILD=1", "NOOK_CRASH_DB="+db, "NOOK_CRASH_SIDE="+side,
		"NOOK_CRASH_POLICY="+string(policy))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "started\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child: %q %v", line, err)
	}
	time.Sleep(delay)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
}

// killedChild is killChild under the replay policy.
func killedChild(t *testing.T, db, side string, delay time.Duration) {
	killChild(t, db, side, runtime.PolicyReplay, delay)
}
