package openai_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools"
	nookai "github.com/nookdev/nook/tools/openai"
	"github.com/nookdev/nook/vfs"
)

// hookedWorkspace is a workspace whose set blocks writes of .env files,
// redacts "hunter2" and makes deletes wait for approval, registered as
// ws:tools so that the wait is durable; /notes.txt holds the secret.
func hookedWorkspace(t *testing.T) (*nook.Workspace, *tools.Set) {
	t.Helper()
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
	t.Cleanup(func() { ws.Close() })
	opts.Runtime = ws.Runtime()
	set := tools.New(ws.FS(), opts)
	bind(set)
	ws.FS().WriteFile(ctx, "/notes.txt", []byte("password: hunter2\n"), &vfs.WriteOptions{})
	// A person refuses the delete when it waits.
	go func() {
		for range 1000 {
			if p, _ := ws.Runtime().Pending(ctx); len(p) == 1 {
				ws.Runtime().Respond(ctx, p[0].RunID, p[0].CallID, tools.Approval{Reason: "keep it"})
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return ws, set
}

// The results the hooks give, in call order: blocked, redacted, refused.
var hookedWant = []string{
	"write was blocked: secrets stay unwritten",
	"1\tpassword: [redacted]",
	"delete was not approved: keep it",
}

func checkHooked(t *testing.T, ws *nook.Workspace, got []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(hookedWant, "\n") {
		t.Errorf("results:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(hookedWant, "\n"))
	}
	ctx := context.Background()
	if _, err := ws.FS().Stat(ctx, "/.env"); vfs.Code(err) != vfs.ENOENT {
		t.Errorf("blocked write made /.env: %v", err)
	}
	if _, err := ws.FS().Stat(ctx, "/notes.txt"); err != nil {
		t.Errorf("refused delete: %v", err)
	}
}

// The adapter's calls meet the set's hooks: a block, a redaction and an
// approval apply to Chat Completions tool calls.
func TestChatHooks(t *testing.T) {
	ws, set := hookedWorkspace(t)
	var msg oai.ChatCompletionMessage
	if err := json.Unmarshal([]byte(`{"role":"assistant","content":null,"tool_calls":[
	  {"id":"c1","type":"function","function":{"name":"write","arguments":"{\"path\":\"/.env\",\"content\":\"K=1\"}"}},
	  {"id":"c2","type":"function","function":{"name":"read","arguments":"{\"path\":\"/notes.txt\"}"}},
	  {"id":"c3","type":"function","function":{"name":"delete","arguments":"{\"path\":\"/notes.txt\"}"}}]}`), &msg); err != nil {
		t.Fatal(err)
	}
	out, err := nookai.CallChat(context.Background(), set, msg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range out {
		var v struct{ Content string }
		json.Unmarshal([]byte(asJSON(m)), &v)
		got = append(got, v.Content)
	}
	checkHooked(t, ws, got)
}

// The same for Responses API function calls.
func TestResponsesHooks(t *testing.T) {
	ws, set := hookedWorkspace(t)
	var resp responses.Response
	if err := json.Unmarshal([]byte(`{"id":"resp_h","object":"response","status":"completed","output":[
	  {"type":"function_call","id":"fc1","call_id":"c1","name":"write","arguments":"{\"path\":\"/.env\",\"content\":\"K=1\"}","status":"completed"},
	  {"type":"function_call","id":"fc2","call_id":"c2","name":"read","arguments":"{\"path\":\"/notes.txt\"}","status":"completed"},
	  {"type":"function_call","id":"fc3","call_id":"c3","name":"delete","arguments":"{\"path\":\"/notes.txt\"}","status":"completed"}]}`), &resp); err != nil {
		t.Fatal(err)
	}
	out, err := nookai.CallResponses(context.Background(), set, &resp)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, item := range out {
		var v struct{ Output string }
		json.Unmarshal([]byte(asJSON(item)), &v)
		got = append(got, v.Output)
	}
	checkHooked(t, ws, got)
}
