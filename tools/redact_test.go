package tools

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// Redact rewrites every string a result carries, in text and structured
// value alike, and leaves the result it was given as it was.
func TestRedact(t *testing.T) {
	hide := strings.NewReplacer("hunter2", "[x]").Replace
	in := &Result{
		Content:    []Content{{Type: TextContent, Text: "pw hunter2"}, {Type: LinkContent, URI: "nook:///hunter2", Name: "hunter2.txt"}},
		Structured: map[string]any{"content": "pw hunter2", "hunter2.txt": []any{"a hunter2", 12345678901234567}, "n": 3},
		IsError:    true,
	}
	out := Redact(in, hide)
	b, _ := json.Marshal(out.Structured)
	if want := `{"[x].txt":["a [x]",12345678901234567],"content":"pw [x]","n":3}`; string(b) != want {
		t.Errorf("structured = %s, want %s", b, want)
	}
	if out.Content[0].Text != "pw [x]" || out.Content[1].URI != "nook:///[x]" || out.Content[1].Name != "[x].txt" || !out.IsError {
		t.Errorf("content = %+v, isError %v", out.Content, out.IsError)
	}
	if in.Content[0].Text != "pw hunter2" || in.Structured.(map[string]any)["content"] != "pw hunter2" {
		t.Errorf("Redact changed its input: %+v", in)
	}
	if Redact(nil, hide) != nil {
		t.Error("Redact(nil) is not nil")
	}
}

// A tool of a set, called as a Tool, meets the set's hooks: there is no
// call around them.
func TestToolCallMeetsHooks(t *testing.T) {
	s, f := newSet(t, Options{Hooks: []Hook{{Before: func(ctx context.Context, c *Call) Verdict {
		return Verdict{Block: "no " + c.Tool}
	}}}})
	mustWrite(t, f, "/a.txt", "a")
	r, err := s.Tool("read").Call(bg, json.RawMessage(`{"path":"/a.txt"}`))
	if err != nil || !r.IsError || text(r) != "read was blocked: no read" {
		t.Errorf("Tool.Call: %v %q", err, text(r))
	}
	// A copy renamed still runs the set's read, and hooks see "read".
	tl := s.Tool("read")
	tl.Name = "harmless"
	r, _ = tl.Call(bg, json.RawMessage(`{"path":"/a.txt"}`))
	if text(r) != "read was blocked: no read" || s.Tool("read") == nil {
		t.Errorf("renamed copy: %q", text(r))
	}
	r, _ = (&Tool{Name: "mine"}).Call(bg, nil)
	if !r.IsError || text(r) != "mine is not a tool of a tool set (tools.New makes them)" {
		t.Errorf("a Tool literal: %q", text(r))
	}
}

// A hook that panics fails the call closed, as a panicking tool does.
func TestHookPanicFailsClosed(t *testing.T) {
	s, f := newSet(t, Options{Hooks: []Hook{{Before: func(ctx context.Context, c *Call) Verdict { panic("boom") }}}})
	fails(t, s, "write", `{"path":"/a.txt","content":"x"}`, "internal error in write: boom")
	if _, err := f.Stat(bg, "/a.txt"); err == nil {
		t.Error("the write went on")
	}
}

// A model's call that waits for approval and is carried out by a process
// without hooks (as "nook approvals respond" is) still reaches the model
// through this process's redaction.
func TestRedactionAfterApprovalElsewhere(t *testing.T) {
	db := filepath.Join(t.TempDir(), "ws.db")
	hide := strings.NewReplacer("hunter2", "[x]").Replace
	ws1, set1 := hookedWS(t, db,
		RequireApproval(ApprovalPolicy{Tools: []string{"read"}}),
		Hook{After: func(ctx context.Context, c *Call, r *Result) *Result { return Redact(r, hide) }})
	defer ws1.Close()
	mustWrite(t, ws1.FS(), "/workspace/pw.txt", "pw hunter2\n")
	got := make(chan *Result, 1)
	go func() {
		r, _ := set1.Call(bg, "read", json.RawMessage(`{"path":"/workspace/pw.txt"}`))
		got <- r
	}()
	ws2, _ := hookedWS(t, db) // no hooks
	defer ws2.Close()
	p := pendingCalls(t, ws2.Runtime(), 1)
	if err := ws2.Runtime().Respond(bg, p[0].RunID, p[0].CallID, Approval{Approved: true}); err != nil {
		t.Fatal(err)
	}
	r := <-got
	b, _ := json.Marshal(r)
	if r.IsError || strings.Contains(string(b), "hunter2") || !strings.Contains(text(r), "pw [x]") {
		t.Errorf("result after an approval elsewhere: %s", b)
	}
}
