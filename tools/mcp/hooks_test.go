package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/tools/internal/approvaltest"
	mcpadapter "github.com/nookdev/nook/tools/mcp"
	"github.com/nookdev/nook/vfs"
)

// hookedSet opens a workspace file as an embedder of the MCP server would:
// the set, with hooks, registered as ws:tools so that approvals wait
// durably.
func hookedSet(t *testing.T, opts tools.Options) (*nook.Workspace, *tools.Set) {
	t.Helper()
	mod, bind := tools.LateModule(opts)
	ws, err := nook.Open(context.Background(), filepath.Join(t.TempDir(), "ws.db"),
		nook.WithModules(map[string]runtime.Module{tools.ModuleName: mod}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	opts.Runtime = ws.Runtime()
	set := tools.New(ws.FS(), opts)
	bind(set)
	return ws, set
}

// The hooks of the README's example: a block, a redaction, an approval.
func exampleHooks() []tools.Hook {
	hide := strings.NewReplacer("hunter2", "[redacted]").Replace
	return []tools.Hook{
		{Before: func(ctx context.Context, c *tools.Call) tools.Verdict {
			if strings.Contains(string(c.Input), ".env") {
				return tools.Verdict{Block: "secrets stay unread"}
			}
			return tools.Verdict{}
		}},
		{After: func(ctx context.Context, c *tools.Call, r *tools.Result) *tools.Result {
			return tools.Redact(r, hide)
		}},
		tools.RequireApproval(tools.ApprovalPolicy{Tools: []string{"delete"}}),
	}
}

// answer waits for one pending approval, checks what it asks, and gives
// the answer.
func answer(t *testing.T, rt *runtime.Runtime, wantTool string, ans tools.Approval) {
	t.Helper()
	ctx := context.Background()
	for range 500 {
		p, err := rt.Pending(ctx)
		if err != nil {
			t.Error(err)
			return
		}
		if len(p) == 1 {
			var req tools.ApprovalRequest
			json.Unmarshal(p[0].Payload, &req)
			if req.Kind != "tool-approval" || req.Tool != wantTool {
				t.Errorf("pending %s", p[0].Payload)
			}
			if err := rt.Respond(ctx, p[0].RunID, p[0].CallID, ans); err != nil {
				t.Error(err)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("no pending approval of %s", wantTool)
}

// A hooked server over MCP: a blocked write changes nothing, a delete
// waits for approval (refused, then approved), and a redacted secret is in
// neither the content nor the structured content the client gets.
func TestHooksOverMCP(t *testing.T) {
	ctx := context.Background()
	ws, set := hookedSet(t, tools.Options{Hooks: exampleHooks()})
	f := ws.FS()
	f.WriteFile(ctx, "/app/notes.txt", []byte("password: hunter2\n"), &vfs.WriteOptions{MkdirAll: true})
	cs := connect(t, set)

	r := call(t, cs, "write", `{"path":"/app/.env","content":"KEY=1\n"}`)
	if !r.IsError || textOf(r) != "write was blocked: secrets stay unread" {
		t.Errorf("blocked write over MCP: isError %v, %q", r.IsError, textOf(r))
	}
	if _, err := f.Stat(ctx, "/app/.env"); vfs.Code(err) != vfs.ENOENT {
		t.Errorf("the blocked write made .env: %v", err)
	}

	r = call(t, cs, "read", `{"path":"/app/notes.txt"}`)
	wire, _ := json.Marshal(r)
	if r.IsError || strings.Contains(string(wire), "hunter2") || !strings.Contains(textOf(r), "password: [redacted]") {
		t.Errorf("redacted read over MCP leaks or fails: %s", wire)
	}
	if sc, _ := json.Marshal(r.StructuredContent); !strings.Contains(string(sc), `"content":"1\tpassword: [redacted]"`) {
		t.Errorf("structuredContent = %s", sc)
	}

	for _, c := range []struct {
		ans  tools.Approval
		want string
		gone bool
	}{
		{tools.Approval{Reason: "keep it"}, "delete was not approved: keep it", false},
		{tools.Approval{Approved: true}, "Deleted file /app/notes.txt", true},
	} {
		done := make(chan struct{})
		go func() { defer close(done); answer(t, ws.Runtime(), "delete", c.ans) }()
		r := call(t, cs, "delete", `{"path":"/app/notes.txt"}`)
		<-done
		if textOf(r) != c.want {
			t.Errorf("delete over MCP answered %+v: %q, want %q", c.ans, textOf(r), c.want)
		}
		if _, err := f.Stat(ctx, "/app/notes.txt"); (err != nil) != c.gone {
			t.Errorf("answered %+v: stat = %v", c.ans, err)
		}
	}
}

// The same server over streamable HTTP meets the same hooks.
func TestHooksOverHTTP(t *testing.T) {
	ctx := context.Background()
	ws, set := hookedSet(t, tools.Options{Hooks: exampleHooks()})
	ws.FS().WriteFile(ctx, "/app/notes.txt", []byte("password: hunter2\n"), &vfs.WriteOptions{MkdirAll: true})
	srv := httptest.NewServer(mcpadapter.Handler(mcpadapter.NewServer(set, nil), nil))
	defer srv.Close()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "nook-test", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if r := call(t, cs, "write", `{"path":"/app/.env","content":"x"}`); !r.IsError || textOf(r) != "write was blocked: secrets stay unread" {
		t.Errorf("blocked write over HTTP: %q", textOf(r))
	}
	r := call(t, cs, "read", `{"path":"/app/notes.txt"}`)
	if wire, _ := json.Marshal(r); r.IsError || strings.Contains(string(wire), "hunter2") {
		t.Errorf("redacted read over HTTP: %s", wire)
	}
}

// Every spelling of a protected path asks for approval over MCP.
func TestApprovalBypassesMCP(t *testing.T) {
	ctx := context.Background()
	ws, set := hookedSet(t, tools.Options{DeferApprovals: true,
		Hooks: []tools.Hook{tools.RequireApproval(tools.ApprovalPolicy{Paths: []string{approvaltest.Protected}})}})
	if err := approvaltest.Setup(ctx, ws.FS()); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, set)
	rt := ws.Runtime()
	for _, c := range approvaltest.Bypasses {
		r := call(t, cs, c.Tool, c.Input)
		v, _ := r.StructuredContent.(map[string]any)
		if r.IsError || v["pending"] != true || v["reason"] != c.Reason {
			t.Errorf("%s: %s %s over MCP:\n got %q (%v)\nwant pending, reason %q", c.Name, c.Tool, c.Input, textOf(r), v["reason"], c.Reason)
			continue
		}
		run, _ := v["runId"].(string)
		callID, _ := v["callId"].(string)
		if err := rt.Respond(ctx, run, callID, tools.Approval{Reason: "no"}); err != nil {
			t.Fatal(err)
		}
		h, err := rt.GetExec(ctx, run, runtime.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.Result(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := approvaltest.Unchanged(ctx, ws.FS()); err != nil {
		t.Error(err)
	}
	for _, c := range approvaltest.Allowed {
		r := call(t, cs, c.Tool, c.Input)
		if v, _ := r.StructuredContent.(map[string]any); r.IsError || v["pending"] != nil {
			t.Errorf("%s: %s %s over MCP: %q", c.Name, c.Tool, c.Input, textOf(r))
		}
	}
}
