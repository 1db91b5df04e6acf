package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/vfs"
)

// Hooks on a tool set: one blocks reads of .env files, one redacts a
// secret from every result, and a stock policy makes deletes wait for a
// person. The wait is durable: the set is registered as ws:tools, so the
// call could be answered after a restart, by another process.
func ExampleHook() {
	ctx := context.Background()
	opts := tools.Options{Hooks: []tools.Hook{
		{Before: func(ctx context.Context, c *tools.Call) tools.Verdict {
			if strings.Contains(string(c.Input), ".env") {
				return tools.Verdict{Block: "secrets stay unread"}
			}
			return tools.Verdict{}
		}},
		{After: func(ctx context.Context, c *tools.Call, r *tools.Result) *tools.Result {
			// Both the text and the structured value: MCP sends both.
			return tools.Redact(r, strings.NewReplacer("hunter2", "[redacted]").Replace)
		}},
		tools.RequireApproval(tools.ApprovalPolicy{Tools: []string{"delete"}}),
	}}
	mod, bind := tools.LateModule(opts)
	ws, _ := nook.OpenMemory(ctx, nook.WithModules(map[string]runtime.Module{tools.ModuleName: mod}))
	defer ws.Close()
	opts.Runtime = ws.Runtime()
	set := tools.New(ws.FS(), opts)
	bind(set)
	ws.FS().WriteFile(ctx, "/app/.env", []byte("KEY=1\n"), &vfs.WriteOptions{MkdirAll: true})
	ws.FS().WriteFile(ctx, "/app/notes.txt", []byte("password: hunter2\n"), nil)

	show := func(name, args string) {
		r, _ := set.Call(ctx, name, json.RawMessage(args))
		fmt.Printf("%s: %s\n", name, r.Content[0].Text)
	}
	show("read", `{"path":"/app/.env"}`)
	r, _ := set.Call(ctx, "read", json.RawMessage(`{"path":"/app/notes.txt"}`))
	structured, _ := json.Marshal(r.Structured)
	fmt.Println("read notes.txt: secret shown:", strings.Contains(r.Content[0].Text+string(structured), "hunter2"),
		"redacted:", strings.Contains(r.Content[0].Text, "[redacted]"))

	// A person answers the pending delete while the call waits.
	go func() {
		for {
			if p, _ := ws.Runtime().Pending(ctx); len(p) == 1 {
				var req tools.ApprovalRequest
				json.Unmarshal(p[0].Payload, &req)
				fmt.Println("approve?", req.Tool, string(req.Input))
				ws.Runtime().Respond(ctx, p[0].RunID, p[0].CallID, tools.Approval{Approved: true})
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	show("delete", `{"path":"/app/notes.txt"}`)
	// Output:
	// read: read was blocked: secrets stay unread
	// read notes.txt: secret shown: false redacted: true
	// approve? delete {"path":"/app/notes.txt"}
	// delete: Deleted file /app/notes.txt
}
