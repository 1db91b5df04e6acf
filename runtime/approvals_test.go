package runtime_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// approvalWS opens a workspace whose ws:gate module asks for approval;
// ran counts the function's real executions, waits the OnWait calls.
func approvalWS(t *testing.T, db string, ran, waits *atomic.Int32) *nook.Workspace {
	t.Helper()
	mods := map[string]runtime.Module{"ws:gate": {
		"post": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			ran.Add(1)
			ans, err := c.Interrupt(map[string]any{"post": args[0]})
			if err != nil {
				return nil, err
			}
			if m, _ := ans.(map[string]any); m["approved"] != true {
				return nil, errors.New("the post was rejected")
			}
			return "posted " + args[0].(string) + " as " + c.CallID, nil
		},
		"twice": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			if _, err := c.Interrupt("first"); err != nil {
				return nil, err
			}
			_, err := c.Interrupt("second")
			return nil, err
		},
	}}
	ws, err := nook.Open(context.Background(), db, nook.WithRuntime(runtime.Options{
		Backends: []runtime.Backend{&scriptBackend{}}, Modules: mods,
		OnInterrupt: map[string]runtime.Policy{"script": runtime.PolicyReplay},
		OnWait:      func(runtime.PendingCall) { waits.Add(1) },
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

func waitPending(t *testing.T, rt *runtime.Runtime, n int) []runtime.PendingCall {
	t.Helper()
	for range 200 {
		p, err := rt.Pending(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(p) == n {
			return p
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %d pending calls", n)
	return nil
}

// A call that waits for an answer survives its process: a new process
// lists it, answers it, and the run replays up to the call and finishes,
// the function running again with the same call id and getting the answer.
func TestInterruptRespondAcrossRestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	var ran, waits atomic.Int32
	ws := approvalWS(t, db, &ran, &waits)
	ctx := context.Background()
	h, err := ws.Runtime().Exec(ctx, "out asking\ncall module ws:gate/post [\"hello\"]\nout end", runtime.ExecOptions{ID: "w"})
	if err != nil {
		t.Fatal(err)
	}
	p := waitPending(t, ws.Runtime(), 1)
	if p[0].RunID != "w" || p[0].CallID != "w/1" || string(p[0].Payload) != `{"post":"hello"}` {
		t.Errorf("pending %+v", p[0])
	}
	if waits.Load() != 1 {
		t.Errorf("OnWait called %d times", waits.Load())
	}
	// The run is running (waiting) while its process is gone.
	wctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	if err := h.Wait(wctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Wait on a waiting run: %v", err)
	}
	cancel()
	ws.Close()

	ws2 := approvalWS(t, db, &ran, &waits)
	rt := ws2.Runtime()
	p = waitPending(t, rt, 1)
	if err := rt.Respond(ctx, "w", p[0].CallID, map[string]any{"approved": true}); err != nil {
		t.Fatal(err)
	}
	err = rt.Respond(ctx, "w", "w/1", map[string]any{"approved": true})
	var re *runtime.Error
	if !errors.As(err, &re) || re.Code != runtime.ENOTWAITING || err.Error() != "call w/1 is not waiting for an answer" {
		t.Errorf("second answer: %v", err)
	}
	h2, _ := rt.GetExec(ctx, "w", runtime.GetOptions{})
	res, err := h2.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusCompleted || string(res.Stdout) != "asking\n\"posted hello as w/1\"\nend\n" {
		t.Errorf("status %s stdout %q stderr %q", res.Status, res.Stdout, res.Stderr)
	}
	if ran.Load() != 2 || waits.Load() != 1 {
		t.Errorf("the function ran %d times (want 2), OnWait %d (want 1)", ran.Load(), waits.Load())
	}
	if p, _ := rt.Pending(ctx); len(p) != 0 {
		t.Errorf("pending after the answer: %+v", p)
	}
}

func TestInterruptRules(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	var ran, waits atomic.Int32
	ws := approvalWS(t, db, &ran, &waits)
	rt := ws.Runtime()
	ctx := context.Background()

	// Only a replay-policy run can wait.
	res := run(t, rt, `call module ws:gate/post ["x"]`, runtime.ExecOptions{OnInterrupt: runtime.PolicyFail})
	if got := string(res.Stdout); got != "error: Interrupt needs a run whose interrupt policy is replay\n" {
		t.Errorf("fail policy: %q", got)
	}
	// A call interrupts once.
	if _, err := rt.Exec(ctx, `call module ws:gate/twice []`, runtime.ExecOptions{ID: "t"}); err != nil {
		t.Fatal(err)
	}
	waitPending(t, rt, 1)
	if err := rt.Respond(ctx, "t", "t/1", "ok"); err != nil {
		t.Fatal(err)
	}
	h, _ := rt.GetExec(ctx, "t", runtime.GetOptions{})
	res, _ = h.Result(ctx)
	if got := string(res.Stdout); got != "error: a call can interrupt only once\n" {
		t.Errorf("second interrupt: %q", got)
	}
	// A rejected answer reaches the program as the function's error.
	if _, err := rt.Exec(ctx, `call module ws:gate/post ["no"]`, runtime.ExecOptions{ID: "r"}); err != nil {
		t.Fatal(err)
	}
	waitPending(t, rt, 1)
	rt.Respond(ctx, "r", "r/1", map[string]any{"approved": false})
	h, _ = rt.GetExec(ctx, "r", runtime.GetOptions{})
	res, _ = h.Result(ctx)
	if got := string(res.Stdout); got != "error: the post was rejected\n" {
		t.Errorf("rejected: %q", got)
	}
	// Killing a waiting run ends it.
	if _, err := rt.Exec(ctx, `call module ws:gate/post ["k"]`, runtime.ExecOptions{ID: "k"}); err != nil {
		t.Fatal(err)
	}
	waitPending(t, rt, 1)
	if err := rt.KillExec(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	h, _ = rt.GetExec(ctx, "k", runtime.GetOptions{})
	res, _ = h.Result(ctx)
	if res.Status != runtime.StatusCancelled || !strings.HasSuffix(string(res.Stderr), "Execution cancelled.\n") {
		t.Errorf("killed while waiting: %s %q", res.Status, res.Stderr)
	}
	if err := rt.Respond(ctx, "k", "k/1", true); code(err) != runtime.ENOTWAITING {
		t.Errorf("answer to a killed run: %v", err)
	}
	if err := rt.Respond(ctx, "k", "bogus", true); code(err) != vfs.EINVAL {
		t.Errorf("bad call id: %v", err)
	}
}
