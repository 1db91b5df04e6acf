package anthropic_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools"
	nookclaude "github.com/nookdev/nook/tools/anthropic"
	"github.com/nookdev/nook/vfs"
)

// The adapter's calls meet the set's hooks: a blocked write, a redacted
// read (in the text the model gets) and a delete that waits for approval
// and is refused.
func TestHooks(t *testing.T) {
	ctx := context.Background()
	hide := strings.NewReplacer("hunter2", "[redacted]").Replace
	opts := tools.Options{Hooks: []tools.Hook{
		{Before: func(ctx context.Context, c *tools.Call) tools.Verdict {
			if strings.Contains(string(c.Input), ".env") {
				return tools.Verdict{Block: "secrets stay unwritten"}
			}
			return tools.Verdict{}
		}},
		{After: func(ctx context.Context, c *tools.Call, r *tools.Result) *tools.Result { return tools.Redact(r, hide) }},
		tools.RequireApproval(tools.ApprovalPolicy{Tools: []string{"delete"}}),
	}}
	mod, bind := tools.LateModule(opts)
	ws, err := nook.OpenMemory(ctx, nook.WithModules(map[string]runtime.Module{tools.ModuleName: mod}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	opts.Runtime = ws.Runtime()
	set := tools.New(ws.FS(), opts)
	bind(set)
	ws.FS().WriteFile(ctx, "/notes.txt", []byte("password: hunter2\n"), &vfs.WriteOptions{})
	go func() {
		for range 1000 {
			if p, _ := ws.Runtime().Pending(ctx); len(p) == 1 {
				ws.Runtime().Respond(ctx, p[0].RunID, p[0].CallID, tools.Approval{Reason: "keep it"})
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()

	var msg sdk.Message
	if err := json.Unmarshal([]byte(`{"id":"msg_h","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929",
	  "content":[{"type":"tool_use","id":"w","name":"write","input":{"path":"/.env","content":"K=1"}},
	             {"type":"tool_use","id":"r","name":"read","input":{"path":"/notes.txt"}},
	             {"type":"tool_use","id":"d","name":"delete","input":{"path":"/notes.txt"}}],
	  "stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`), &msg); err != nil {
		t.Fatal(err)
	}
	out, err := nookclaude.Call(ctx, set, &msg)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"tool_use_id":"w","is_error":true,"content":[{"text":"write was blocked: secrets stay unwritten","type":"text"}],"type":"tool_result"}`,
		`{"tool_use_id":"r","is_error":false,"content":[{"text":"1\tpassword: [redacted]","type":"text"}],"type":"tool_result"}`,
		`{"tool_use_id":"d","is_error":true,"content":[{"text":"delete was not approved: keep it","type":"text"}],"type":"tool_result"}`,
	}
	if len(out) != len(want) {
		t.Fatalf("%d results: %s", len(out), asJSON(out))
	}
	for i, w := range want {
		if got := asJSON(out[i]); got != w {
			t.Errorf("result %d:\n got %s\nwant %s", i, got, w)
		}
	}
	if _, err := ws.FS().Stat(ctx, "/.env"); vfs.Code(err) != vfs.ENOENT {
		t.Errorf("blocked write made /.env: %v", err)
	}
	if _, err := ws.FS().Stat(ctx, "/notes.txt"); err != nil {
		t.Errorf("refused delete: %v", err)
	}
}
