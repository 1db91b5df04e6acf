package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/vfs"
)

// An embedder's tool call waiting for approval (a hook requires it for
// delete) is listed by "nook approvals ls" and carried out, once, by
// "nook approvals respond" in another process.
func TestApprovalsOfToolCalls(t *testing.T) {
	w := newWS(t)
	ctx := context.Background()
	os.MkdirAll(filepath.Dir(w.db), 0o755)
	opts := tools.Options{Hooks: []tools.Hook{tools.RequireApproval(tools.ApprovalPolicy{Tools: []string{"delete"}})}}
	mod, bind := tools.LateModule(opts)
	ws, err := nook.Open(ctx, w.db, nook.WithBackends(backends()...),
		nook.WithModules(map[string]runtime.Module{tools.ModuleName: mod}))
	if err != nil {
		t.Fatal(err)
	}
	opts.Runtime = ws.Runtime()
	set := tools.New(ws.FS(), opts)
	bind(set)
	if err := ws.FS().WriteFile(ctx, "/workspace/old.log", []byte("x"), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		set.Call(cctx, "delete", json.RawMessage(`{"path":"/workspace/old.log"}`))
		close(done)
	}()
	var p []runtime.PendingCall
	for range 500 {
		if p, _ = ws.Runtime().Pending(ctx); len(p) == 1 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	ws.Close()
	if len(p) != 1 {
		t.Fatalf("pending: %+v", p)
	}

	var listed []struct {
		Run     string `json:"runId"`
		Call    string `json:"callId"`
		Payload tools.ApprovalRequest
	}
	if err := json.Unmarshal([]byte(w.ok("--json", "approvals", "ls")), &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed) != 1 || listed[0].Call != p[0].CallID || listed[0].Payload.Tool != "delete" ||
		listed[0].Payload.Reason != "delete needs approval" || string(listed[0].Payload.Input) != `{"path":"/workspace/old.log"}` {
		t.Fatalf("approvals ls: %+v", listed)
	}
	out := w.ok("approvals", "respond", p[0].RunID, p[0].CallID, `{"approved":true}`)
	if !strings.Contains(out, "completed (exit 0)") {
		t.Errorf("respond: %q", out)
	}
	w.fail(1, "", "stat", "/workspace/old.log")
	if got := w.ok("approvals", "ls"); got != "no calls are waiting\n" {
		t.Errorf("approvals ls after: %q", got)
	}
}
