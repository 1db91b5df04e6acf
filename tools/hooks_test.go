package tools

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/vfs"
)

// hookedWS opens the workspace db as an embedder would: the set, with
// hooks, registered as ws:tools so that approvals can wait durably.
func hookedWS(t *testing.T, db string, hooks ...Hook) (*nook.Workspace, *Set) {
	t.Helper()
	opts := Options{Hooks: hooks}
	mod, bind := LateModule(opts)
	ws, err := nook.Open(bg, db, nook.WithBackends(js.New(js.Options{})),
		nook.WithModules(map[string]runtime.Module{ModuleName: mod}))
	if err != nil {
		t.Fatal(err)
	}
	opts.Runtime = ws.Runtime()
	set := New(ws.FS(), opts)
	bind(set)
	return ws, set
}

func pendingCalls(t *testing.T, rt *runtime.Runtime, n int) []runtime.PendingCall {
	t.Helper()
	for range 500 {
		p, err := rt.Pending(bg)
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

// countDeletes counts the deletes of path the change feed recorded.
func countDeletes(t *testing.T, f *vfs.FS, path string) int {
	t.Helper()
	cs, err := f.Changes(bg, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cs {
		if c.Path == path && c.Op == vfs.OpRemove {
			n++
		}
	}
	return n
}

// The required case: a before-hook requires approval for delete; the
// model's call waits, the process that made it stops, a second open of the
// same workspace file lists the wait, answers it, and the delete happens
// exactly once.
func TestApprovalSurvivesRestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "ws.db")
	var deletes atomic.Int32 // results of delete that were not errors, in both "processes"
	hooks := []Hook{
		RequireApproval(ApprovalPolicy{Tools: []string{"delete"}}),
		{After: func(ctx context.Context, c *Call, r *Result) *Result {
			if c.Tool == "delete" && !r.IsError {
				deletes.Add(1)
			}
			return nil
		}},
	}
	ws1, set1 := hookedWS(t, db, hooks...)
	if err := ws1.FS().WriteFile(bg, "/workspace/old.log", []byte("x"), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(bg)
	done := make(chan error, 1)
	go func() {
		_, err := set1.Call(ctx, "delete", json.RawMessage(`{"path":"/workspace/old.log"}`))
		done <- err
	}()
	p := pendingCalls(t, ws1.Runtime(), 1)
	var req ApprovalRequest
	if err := json.Unmarshal(p[0].Payload, &req); err != nil {
		t.Fatal(err)
	}
	if req.Kind != "tool-approval" || req.Tool != "delete" || string(req.Input) != `{"path":"/workspace/old.log"}` || req.Reason != "delete needs approval" {
		t.Errorf("payload = %s", p[0].Payload)
	}
	if _, err := ws1.FS().Stat(bg, "/workspace/old.log"); err != nil {
		t.Fatalf("deleted before approval: %v", err)
	}
	// The process stops: the model's call gives up and the workspace
	// closes, the wait stays in the file.
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("abandoned call: %v", err)
	}
	if err := ws1.Close(); err != nil {
		t.Fatal(err)
	}

	ws2, _ := hookedWS(t, db, hooks...)
	defer ws2.Close()
	p2 := pendingCalls(t, ws2.Runtime(), 1)
	if p2[0].RunID != p[0].RunID || p2[0].CallID != p[0].CallID {
		t.Fatalf("after the restart pending = %+v, want %+v", p2[0], p[0])
	}
	if err := ws2.Runtime().Respond(bg, p2[0].RunID, p2[0].CallID, Approval{Approved: true}); err != nil {
		t.Fatal(err)
	}
	h, err := ws2.Runtime().GetExec(bg, p2[0].RunID, runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil || res.Status != runtime.StatusCompleted {
		t.Fatalf("call run: %v %+v", err, res)
	}
	var wire resultWire
	json.Unmarshal(res.Value, &wire)
	if r := wire.result(); r.IsError || text(r) != "Deleted file /workspace/old.log" {
		t.Errorf("delete result = %s", res.Value)
	}
	if _, err := ws2.FS().Stat(bg, "/workspace/old.log"); vfs.Code(err) != vfs.ENOENT {
		t.Errorf("not deleted after approval: %v", err)
	}
	if n := deletes.Load(); n != 1 {
		t.Errorf("delete ran %d times, want 1", n)
	}
	if n := countDeletes(t, ws2.FS(), "/workspace/old.log"); n != 1 {
		t.Errorf("the change feed has %d deletes of old.log, want 1", n)
	}
	// Answering again is refused and changes nothing.
	var re *runtime.Error
	if err := ws2.Runtime().Respond(bg, p2[0].RunID, p2[0].CallID, Approval{Approved: true}); !errors.As(err, &re) || re.Code != runtime.ENOTWAITING {
		t.Errorf("second answer: %v", err)
	}
	if p, _ := ws2.Runtime().Pending(bg); len(p) != 0 {
		t.Errorf("still pending: %+v", p)
	}
}

// In one process, the model's call returns once answered; a refusal
// leaves the file and says why.
func TestApprovalInProcess(t *testing.T) {
	ws, set := hookedWS(t, filepath.Join(t.TempDir(), "ws.db"),
		RequireApproval(ApprovalPolicy{Paths: []string{"/workspace/keep/**"}}))
	defer ws.Close()
	f := ws.FS()
	for _, p := range []string{"/workspace/keep/a.txt", "/workspace/tmp/b.txt"} {
		f.WriteFile(bg, p, []byte("x"), &vfs.WriteOptions{MkdirAll: true})
	}
	// Outside the protected paths: no wait.
	if r := call(t, set, "delete", `{"path":"/workspace/tmp/b.txt"}`); r.IsError {
		t.Fatalf("unprotected delete: %s", text(r))
	}
	for _, c := range []struct {
		answer any
		want   string
		gone   bool
	}{
		{Approval{Approved: false, Reason: "keep it"}, "delete was not approved: keep it", false},
		{map[string]any{"approved": true}, "Deleted file /workspace/keep/a.txt", true},
	} {
		got := make(chan *Result, 1)
		go func() {
			r, _ := set.Call(bg, "delete", json.RawMessage(`{"path":"/workspace/keep/a.txt"}`))
			got <- r
		}()
		p := pendingCalls(t, ws.Runtime(), 1)
		var req ApprovalRequest
		json.Unmarshal(p[0].Payload, &req)
		if req.Reason != "delete of /workspace/keep/a.txt needs approval (it matches /workspace/keep/**)" {
			t.Errorf("reason = %q", req.Reason)
		}
		if err := ws.Runtime().Respond(bg, p[0].RunID, p[0].CallID, c.answer); err != nil {
			t.Fatal(err)
		}
		r := <-got
		if text(r) != c.want {
			t.Errorf("answer %v: result %q, want %q", c.answer, text(r), c.want)
		}
		if _, err := f.Stat(bg, "/workspace/keep/a.txt"); (err != nil) != c.gone {
			t.Errorf("answer %v: stat = %v", c.answer, err)
		}
	}
}

// Before can block, substitute a result or rewrite the input; After sees
// every result and can redact it. Code's calls through ws:tools meet the
// same hooks.
func TestHooksBlockSubstituteRedact(t *testing.T) {
	var seen []string
	hooks := []Hook{
		{Before: func(ctx context.Context, c *Call) Verdict {
			var in struct{ Path string }
			json.Unmarshal(c.Input, &in)
			switch {
			case strings.HasSuffix(in.Path, ".env"):
				return Verdict{Block: "secrets stay unread"}
			case in.Path == "/workspace/cached":
				return Verdict{Result: Text("from the cache", nil)}
			case in.Path == "/workspace/alias":
				return Verdict{Input: json.RawMessage(`{"path":"/workspace/real.txt"}`)}
			}
			return Verdict{}
		}},
		{After: func(ctx context.Context, c *Call, r *Result) *Result {
			seen = append(seen, c.Tool+" "+string(c.Input))
			out := *r
			out.Content = nil
			for _, part := range r.Content {
				part.Text = strings.ReplaceAll(part.Text, "hunter2", "[redacted]")
				out.Content = append(out.Content, part)
			}
			return &out
		}},
	}
	ws, set := hookedWS(t, filepath.Join(t.TempDir(), "ws.db"), hooks...)
	defer ws.Close()
	ws.FS().WriteFile(bg, "/workspace/real.txt", []byte("password hunter2\n"), &vfs.WriteOptions{MkdirAll: true})
	ws.FS().WriteFile(bg, "/workspace/.env", []byte("KEY=1\n"), nil)

	fails(t, set, "read", `{"path":"/workspace/.env"}`, "read was blocked: secrets stay unread")
	if got := text(call(t, set, "read", `{"path":"/workspace/cached"}`)); got != "from the cache" {
		t.Errorf("substituted = %q", got)
	}
	if got := text(call(t, set, "read", `{"path":"/workspace/alias"}`)); !strings.Contains(got, "password [redacted]") {
		t.Errorf("rewritten and redacted = %q", got)
	}
	want := []string{`read {"path":"/workspace/.env"}`, `read {"path":"/workspace/cached"}`, `read {"path":"/workspace/real.txt"}`}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("After saw:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}

	h, err := ws.Runtime().Exec(bg, `import { read } from "ws:tools";
export default async () => { try { await read({ path: "/workspace/.env" }); return "read"; } catch (e) { return e.code + ": " + e.message; } };`,
		runtime.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := h.Result(bg)
	if string(res.Value) != `"ERR_TOOL: read was blocked: secrets stay unread"` {
		t.Errorf("from code: %s %s", res.Value, res.Stderr)
	}
}

// Code's call that needs approval waits durably in a replay-policy run,
// and is refused with a clear message in any other run.
func TestApprovalFromCode(t *testing.T) {
	ws, _ := hookedWS(t, filepath.Join(t.TempDir(), "ws.db"), RequireApproval(ApprovalPolicy{Tools: []string{"delete"}}))
	defer ws.Close()
	f := ws.FS()
	f.WriteFile(bg, "/workspace/a.txt", []byte("x"), &vfs.WriteOptions{MkdirAll: true})
	src := `import tools from "ws:tools";
export default async () => { try { return await tools.delete({ path: "/workspace/a.txt" }); } catch (e) { return e.message; } };`
	h, err := ws.Runtime().Exec(bg, src, runtime.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := h.Result(bg)
	if want := `"delete: delete needs approval, and code can wait for approval only in a run under the replay policy (ExecOptions.OnInterrupt)"`; string(res.Value) != want {
		t.Errorf("fail policy: %s, want %s", res.Value, want)
	}
	h, err = ws.Runtime().Exec(bg, src, runtime.ExecOptions{OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	p := pendingCalls(t, ws.Runtime(), 1)
	if p[0].RunID != h.ID {
		t.Fatalf("pending %+v, run %s", p[0], h.ID)
	}
	if err := ws.Runtime().Respond(bg, p[0].RunID, p[0].CallID, true); err != nil {
		t.Fatal(err)
	}
	res, _ = h.Result(bg)
	if string(res.Value) != `{"deleted":true,"path":"/workspace/a.txt","type":"file"}` {
		t.Errorf("replay policy: %s %s", res.Value, res.Stderr)
	}
	if n := countDeletes(t, f, "/workspace/a.txt"); n != 1 {
		t.Errorf("%d deletes", n)
	}
}

// Without ws:tools registered, a call that needs approval says what to do.
func TestApprovalNeedsModule(t *testing.T) {
	s, _ := newSet(t, Options{Hooks: []Hook{RequireApproval(ApprovalPolicy{Tools: []string{"write"}})}})
	fails(t, s, "write", `{"path":"/a","content":"x"}`,
		"write needs approval, and a tool set waits for approval through its runtime's ws:tools module: give the set a Runtime and register the set as ws:tools (tools.LateModule)")
}

// The same across a real crash: a child process makes the model's call and
// is killed while it waits; this process opens the workspace file,
// answers, and the delete happens once.
func TestApprovalSurvivesCrash(t *testing.T) {
	if db := os.Getenv("NOOK_APPROVAL_CHILD"); db != "" {
		ws, set := hookedWS(t, db, RequireApproval(ApprovalPolicy{Tools: []string{"delete"}}))
		ws.FS().WriteFile(bg, "/workspace/old.log", []byte("x"), &vfs.WriteOptions{MkdirAll: true})
		go set.Call(bg, "delete", json.RawMessage(`{"path":"/workspace/old.log"}`))
		pendingCalls(t, ws.Runtime(), 1)
		os.Stdout.WriteString("waiting\n")
		select {} // killed here
	}
	db := filepath.Join(t.TempDir(), "ws.db")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestApprovalSurvivesCrash$", "-test.count=1")
	cmd.Env = append(os.Environ(), "NOOK_APPROVAL_CHILD="+db)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "waiting\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child: %q %v", line, err)
	}
	cmd.Process.Kill()
	cmd.Wait()

	ws, _ := hookedWS(t, db, RequireApproval(ApprovalPolicy{Tools: []string{"delete"}}))
	defer ws.Close()
	p := pendingCalls(t, ws.Runtime(), 1)
	if err := ws.Runtime().Respond(bg, p[0].RunID, p[0].CallID, Approval{Approved: true}); err != nil {
		t.Fatal(err)
	}
	h, err := ws.Runtime().GetExec(bg, p[0].RunID, runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := h.Result(bg); err != nil || res.Status != runtime.StatusCompleted {
		t.Fatalf("%v %+v", err, res)
	}
	if _, err := ws.FS().Stat(bg, "/workspace/old.log"); vfs.Code(err) != vfs.ENOENT {
		t.Errorf("not deleted: %v", err)
	}
	if n := countDeletes(t, ws.FS(), "/workspace/old.log"); n != 1 {
		t.Errorf("%d deletes, want 1", n)
	}
}

// The runtime's built-in call backend is not one the exec tool offers.
func TestExecRefusesCallBackend(t *testing.T) {
	s, _ := newExecSet(t, Options{})
	fails(t, s, "exec", `{"command":"x","backend":"nook.call"}`, `no backend with id "nook.call"; the backends are sh, fn`)
}

// exec can need approval too: once approved, the run starts (once) and the
// model gets its usual result.
func TestApprovalOfExec(t *testing.T) {
	ws, set := hookedWS(t, filepath.Join(t.TempDir(), "ws.db"), RequireApproval(ApprovalPolicy{Tools: []string{"exec"}}))
	defer ws.Close()
	got := make(chan *Result, 1)
	go func() {
		r, _ := set.Call(bg, "exec", json.RawMessage(`{"command":"export default () => 6 * 7"}`))
		got <- r
	}()
	p := pendingCalls(t, ws.Runtime(), 1)
	if err := ws.Runtime().Respond(bg, p[0].RunID, p[0].CallID, Approval{Approved: true}); err != nil {
		t.Fatal(err)
	}
	r := <-got
	if r.IsError || !strings.HasPrefix(text(r), "exit 0 (completed)") || !strings.Contains(text(r), "42") {
		t.Errorf("exec after approval: %q", text(r))
	}
}

// With DeferApprovals the model's call returns at once, queued; the
// approval carries it out later.
func TestDeferApprovals(t *testing.T) {
	db := filepath.Join(t.TempDir(), "ws.db")
	opts := Options{Hooks: []Hook{RequireApproval(ApprovalPolicy{Tools: []string{"write"}})}, DeferApprovals: true}
	mod, bind := LateModule(opts)
	ws, err := nook.Open(bg, db, nook.WithModules(map[string]runtime.Module{ModuleName: mod}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	opts.Runtime = ws.Runtime()
	set := New(ws.FS(), opts)
	bind(set)
	r := call(t, set, "write", `{"path":"/a.txt","content":"x"}`)
	v := structured(t, r)
	if r.IsError || v["pending"] != true || v["reason"] != "write needs approval" ||
		!strings.HasPrefix(text(r), "write is waiting for approval (write needs approval): it will be carried out once a person approves it (run ") {
		t.Fatalf("deferred: %q %v", text(r), v)
	}
	run, _ := v["runId"].(string)
	if err := ws.Runtime().Respond(bg, run, run+"/1", Approval{Approved: true}); err != nil {
		t.Fatal(err)
	}
	h, _ := ws.Runtime().GetExec(bg, run, runtime.GetOptions{})
	if res, err := h.Result(bg); err != nil || res.Status != runtime.StatusCompleted {
		t.Fatalf("%v %+v", err, res)
	}
	if b, err := ws.FS().ReadFile(bg, "/a.txt"); string(b) != "x" {
		t.Errorf("a.txt = %q, %v", b, err)
	}
}
