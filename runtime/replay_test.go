package runtime_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/internal/sqldb"
	"github.com/nookdev/nook/internal/wsdb"
	"github.com/nookdev/nook/runtime"
)

const replayScript = `clock
call fs writeFile {"path":"/workspace/log","data":"x","flag":"a"}
call module ws:side/hit ["a"]
rand
out mid
sleep 400ms
call fs writeFile {"path":"/workspace/log","data":"y","flag":"a"}
call module ws:side/hit ["b"]
out done
value "ok"`

// killChild starts a child running replayScript under policy, lets it get
// past its first calls, and SIGKILLs it.
func killChild(t *testing.T, db, side, policy string) {
	t.Helper()
	child := startChild(t, db, replayScript, "NOOK_RUNTIME_POLICY="+policy, "NOOK_RUNTIME_SIDE="+side)
	time.Sleep(200 * time.Millisecond) // into the sleep
	child.Process.Signal(syscall.SIGKILL)
	child.Wait()
}

func resumeChild(t *testing.T, db, side string) (*nook.Workspace, *runtime.Result) {
	t.Helper()
	ws, err := nook.Open(context.Background(), db, nook.WithBackends(&scriptBackend{}), nook.WithModules(sideModule(side)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	h, err := ws.Runtime().GetExec(ctx, "child", runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return ws, res
}

func readHost(t *testing.T, name string) string {
	b, _ := os.ReadFile(name)
	return string(b)
}

// A replay-policy run SIGKILLed in the middle resumes in the next process
// that looks at it: calls it made are answered from the journal (the file
// append and the host-module call happen once), the clock and randomness
// return what they did, output is printed once, and it finishes live.
func TestReplayAfterCrash(t *testing.T) {
	dir := t.TempDir()
	db, side := filepath.Join(dir, "w.db"), filepath.Join(dir, "side")
	killChild(t, db, side, "replay")
	ws, res := resumeChild(t, db, side)
	if res.Status != runtime.StatusCompleted || string(res.Value) != `"ok"` {
		t.Fatalf("status %s value %s stderr %q", res.Status, res.Value, res.Stderr)
	}
	lines := strings.Split(strings.TrimSuffix(string(res.Stdout), "\n"), "\n")
	want := []string{"<clock>", "null", `{"call":"child/2","hit":["a"]}`, "<rand>", "mid", "null",
		`{"call":"child/4","hit":["b"]}`, "done"}
	if len(lines) != len(want) {
		t.Fatalf("stdout:\n%s", res.Stdout)
	}
	for i, w := range want {
		if !strings.HasPrefix(w, "<") && lines[i] != w {
			t.Errorf("line %d: %q, want %q", i+1, lines[i], w)
		}
	}
	log, _ := ws.FS().ReadFile(context.Background(), "/workspace/log")
	if string(log) != "xy" {
		t.Errorf("log %q, want xy (each write once)", log)
	}
	if got := readHost(t, side); got != "[a] child/2\n[b] child/4\n" {
		t.Errorf("host module ran:\n%s", got)
	}
}

// Under the restart policy the run starts over: calls and output repeat.
func TestRestartAfterCrash(t *testing.T) {
	dir := t.TempDir()
	db, side := filepath.Join(dir, "w.db"), filepath.Join(dir, "side")
	killChild(t, db, side, "restart")
	ws, res := resumeChild(t, db, side)
	if res.Status != runtime.StatusCompleted {
		t.Fatalf("status %s stderr %q", res.Status, res.Stderr)
	}
	if n := strings.Count(string(res.Stdout), "mid\n"); n != 2 {
		t.Errorf("mid printed %d times, want 2:\n%s", n, res.Stdout)
	}
	log, _ := ws.FS().ReadFile(context.Background(), "/workspace/log")
	if string(log) != "xxy" {
		t.Errorf("log %q, want xxy", log)
	}
	if got := readHost(t, side); strings.Count(got, "[a]") != 2 {
		t.Errorf("host module ran:\n%s", got)
	}
}

// Under the fail policy the run fails with a clear reason.
func TestFailAfterCrash(t *testing.T) {
	dir := t.TempDir()
	db, side := filepath.Join(dir, "w.db"), filepath.Join(dir, "side")
	killChild(t, db, side, "fail")
	_, res := resumeChild(t, db, side)
	if res.Status != runtime.StatusFailed || !strings.Contains(string(res.Stderr), "Execution was interrupted") {
		t.Errorf("status %s stderr %q", res.Status, res.Stderr)
	}
}

// A replay that asks for something else than the journal holds fails,
// naming the call and both requests.
func TestReplayDivergence(t *testing.T) {
	dir := t.TempDir()
	db, side := filepath.Join(dir, "w.db"), filepath.Join(dir, "side")
	killChild(t, db, side, "replay")
	// Tamper with the journal: call 1 asked for another path.
	ws, err := nook.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	err = wsdb.DB(ws.FS()).Write(context.Background(), func(c *sqldb.Conn) error {
		return c.Exec(`UPDATE journal_calls SET request = replace(request, '/workspace/log', '/workspace/other') WHERE seq = 1`)
	})
	ws.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, res := resumeChild(t, db, side)
	if res.Status != runtime.StatusFailed {
		t.Fatalf("status %s", res.Status)
	}
	want := `replay diverged at call 1: the program asked for fs writeFile {"args":{"data":"x","flag":"a","path":"/workspace/log"}}, the journal holds fs writeFile {"args":{"data":"x","flag":"a","path":"/workspace/other"}}`
	if res.Error != want {
		t.Errorf("error:\n%s\nwant:\n%s", res.Error, want)
	}
}

// A run interrupted while an unsafe-to-repeat function runs fails instead
// of calling it again.
func TestUnsafeToRepeatInterrupted(t *testing.T) {
	dir := t.TempDir()
	db, side := filepath.Join(dir, "w.db"), filepath.Join(dir, "side")
	child := startChild(t, db, "out before\ncall module ws:side/slow []\nout after",
		"NOOK_RUNTIME_POLICY=replay", "NOOK_RUNTIME_SIDE="+side)
	time.Sleep(300 * time.Millisecond)
	child.Process.Signal(syscall.SIGKILL)
	child.Wait()
	_, res := resumeChild(t, db, side)
	want := "the run was interrupted during call 1 (ws:side/slow), which is unsafe to repeat"
	if res.Status != runtime.StatusFailed || res.Error != want || string(res.Stdout) != "before\n" {
		t.Errorf("status %s error %q stdout %q", res.Status, res.Error, res.Stdout)
	}
}

// tamper runs SQL on the workspace's database while no process has it
// open.
func tamper(t *testing.T, db, sql string) {
	t.Helper()
	ws, err := nook.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if err := wsdb.DB(ws.FS()).Write(context.Background(), func(c *sqldb.Conn) error { return c.Exec(sql) }); err != nil {
		t.Fatal(err)
	}
}

// A replay that prints something else than the first attempt fails.
func TestReplayOutputDivergence(t *testing.T) {
	dir := t.TempDir()
	db, side := filepath.Join(dir, "w.db"), filepath.Join(dir, "side")
	killChild(t, db, side, "replay")
	tamper(t, db, `UPDATE journal_events SET data = CAST(replace(CAST(data AS TEXT), 'mid', 'MID') AS BLOB) WHERE run = 'child'`)
	_, res := resumeChild(t, db, side)
	want := `replay diverged: the stdout printed at byte `
	if res.Status != runtime.StatusFailed || !strings.HasPrefix(res.Error, want) || !strings.Contains(res.Error, `expected "MID`) {
		t.Errorf("status %s error %q", res.Status, res.Error)
	}
}

// A run gets three attempts; one that journals nothing new in its attempts
// runs out of them.
func TestAttemptsExhausted(t *testing.T) {
	dir := t.TempDir()
	db, side := filepath.Join(dir, "w.db"), filepath.Join(dir, "side")
	killChild(t, db, side, "replay")
	tamper(t, db, `UPDATE journal_runs SET attempts = 3, progress = (SELECT count(*) FROM journal_calls WHERE run = 'child')`)
	_, res := resumeChild(t, db, side)
	if res.Status != runtime.StatusFailed || !strings.Contains(res.Error, "no attempts left (MaxAttempts 3)") {
		t.Errorf("status %s error %q", res.Status, res.Error)
	}
}

// A run's timeout counts from its first start, across attempts.
func TestTimeoutCountsFromFirstStart(t *testing.T) {
	dir := t.TempDir()
	db, side := filepath.Join(dir, "w.db"), filepath.Join(dir, "side")
	killChild(t, db, side, "replay")
	// Ten seconds (the script backend's default timeout) have gone by.
	tamper(t, db, `UPDATE journal_runs SET created = created - 10000000000`)
	_, res := resumeChild(t, db, side)
	if res.Status != runtime.StatusTimedOut || res.Error != "Execution timed out after 10s (limit Timeout)." {
		t.Errorf("status %s error %q", res.Status, res.Error)
	}
}

// Verify re-runs a finished replay-policy run against its kept journal
// and reports the first difference.
func TestVerify(t *testing.T) {
	dir := t.TempDir()
	side := filepath.Join(dir, "side")
	ws, err := nook.Open(context.Background(), filepath.Join(dir, "w.db"), nook.WithRuntime(runtime.Options{
		Backends: []runtime.Backend{&scriptBackend{}}, Modules: sideModule(side), KeepJournal: true,
		OnInterrupt: map[string]runtime.Policy{"script": runtime.PolicyReplay}}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	rt := ws.Runtime()
	ctx := context.Background()
	src := strings.Replace(replayScript, "sleep 400ms\n", "", 1)
	res := run(t, rt, src, runtime.ExecOptions{ID: "v"})
	if res.Status != runtime.StatusCompleted {
		t.Fatalf("%s %s", res.Status, res.Stderr)
	}
	calls, err := rt.Journal(ctx, "v")
	if err != nil || len(calls) != 4 || calls[1].Op != "ws:side/hit" || string(calls[1].Args) != `["a"]` ||
		string(calls[1].Result) != `{"call":"v/2","hit":["a"]}` {
		t.Fatalf("journal %+v %v", calls, err)
	}
	if err := rt.Verify(ctx, "v"); err != nil {
		t.Fatalf("verify: %v", err)
	}
	hits := readHost(t, side)
	if strings.Count(hits, "\n") != 2 {
		t.Errorf("verify ran the host module again:\n%s", hits)
	}
	log, _ := ws.FS().ReadFile(ctx, "/workspace/log")
	if string(log) != "xy" {
		t.Errorf("verify touched the workspace: log %q", log)
	}
	// A stored output that the program would not print.
	wsdb.DB(ws.FS()).Write(ctx, func(c *sqldb.Conn) error {
		return c.Exec(`UPDATE journal_events SET data = CAST(replace(CAST(data AS TEXT), 'done', 'DONE') AS BLOB) WHERE run = 'v'`)
	})
	err = rt.Verify(ctx, "v")
	var div *runtime.DivergenceError
	if !errors.As(err, &div) || !strings.Contains(err.Error(), `expected "DONE`) {
		t.Errorf("verify after tampering: %v", err)
	}
	// A run without the replay policy cannot be verified.
	run(t, rt, "out x", runtime.ExecOptions{ID: "f", OnInterrupt: runtime.PolicyFail})
	if err := rt.Verify(ctx, "f"); err == nil || err.Error() != "run f was not run with the replay policy" {
		t.Errorf("verify of a fail-policy run: %v", err)
	}
}

// nook.WithRecover resumes interrupted runs when the workspace opens,
// without anyone asking for them.
func TestRecoverOnOpen(t *testing.T) {
	dir := t.TempDir()
	db, side := filepath.Join(dir, "w.db"), filepath.Join(dir, "side")
	killChild(t, db, side, "replay")
	ws, err := nook.Open(context.Background(), db, nook.WithBackends(&scriptBackend{}),
		nook.WithModules(sideModule(side)), nook.WithRecover())
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	for range 300 {
		runs, err := ws.Runtime().Runs(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) == 1 && runs[0].Status == runtime.StatusCompleted {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the interrupted run was not resumed")
}

// A journaled result bigger than MaxJournalEntryBytes fails the call with
// an error that tells the code to go through files.
func TestJournalEntryLimit(t *testing.T) {
	mods := map[string]runtime.Module{"ws:big": {
		"blob": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			return strings.Repeat("x", 2000), nil
		},
	}}
	ws := openWS(t, "", runtime.Options{Modules: mods, Limits: runtime.Limits{MaxJournalEntryBytes: 1000},
		OnInterrupt: map[string]runtime.Policy{"script": runtime.PolicyReplay}})
	res := run(t, ws.Runtime(), "call module ws:big/blob []", runtime.ExecOptions{})
	want := "error: the result of ws:big/blob (2002 bytes) exceeds the journal's entry limit MaxJournalEntryBytes (1000): " +
		"a replayable run must pass big data through files (write it to a file and pass the path)\n"
	if string(res.Stdout) != want {
		t.Errorf("stdout %q", res.Stdout)
	}
	// Without the replay policy nothing is journaled, and nothing fails.
	res = run(t, ws.Runtime(), "call module ws:big/blob []", runtime.ExecOptions{OnInterrupt: runtime.PolicyFail})
	if len(res.Stdout) != 2003 {
		t.Errorf("fail policy: %d bytes", len(res.Stdout))
	}
}
