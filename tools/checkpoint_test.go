package tools

import (
	"encoding/json"
	"regexp"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/nookdev/nook/runtime"
)

// The checkpoint tool is off by default, absent from a read-only set,
// and when enabled creates, lists, diffs and restores; its results match
// its output schema.
func TestCheckpointTool(t *testing.T) {
	if s, _ := newSet(t, Options{}); s.Tool("checkpoint") != nil {
		t.Error("checkpoint tool in a default set")
	}
	if s, _ := newSet(t, Options{ReadOnly: true, Checkpoint: CheckpointOptions{Enabled: true}}); s.Tool("checkpoint") != nil {
		t.Error("checkpoint tool in a read-only set")
	}
	s, ws := newExecSet(t, Options{Checkpoint: CheckpointOptions{Enabled: true, MaxList: 2}})
	f := ws.FS()
	tl := s.Tool("checkpoint")
	if tl == nil || !tl.Annotations.Destructive || tl.Annotations.ReadOnly {
		t.Fatalf("checkpoint tool: %+v", tl)
	}
	var is, os jsonschema.Schema
	if err := json.Unmarshal(tl.InputSchema, &is); err != nil {
		t.Fatal(err)
	}
	if _, err := is.Resolve(nil); err != nil {
		t.Fatalf("input schema: %v", err)
	}
	if err := json.Unmarshal(tl.OutputSchema, &os); err != nil {
		t.Fatal(err)
	}
	rs, err := os.Resolve(nil)
	if err != nil {
		t.Fatalf("output schema: %v", err)
	}
	check := func(r *Result, want string) map[string]any {
		t.Helper()
		if r.IsError {
			t.Fatalf("error: %s", text(r))
		}
		if text(r) != want {
			t.Errorf("text:\n got %q\nwant %q", text(r), want)
		}
		m := structured(t, r)
		if err := rs.Validate(m); err != nil {
			t.Errorf("structured result %v does not match the output schema: %v", m, err)
		}
		return m
	}

	mustWrite(t, f, "/src/a.txt", "A\n")
	mustWrite(t, f, "/src/b.txt", "B\n")
	m := check(call(t, s, "checkpoint", `{"action":"create","name":"base"}`),
		"Checkpoint base records 4 entries (4 bytes of files). Restore it with action restore.")
	if got := m["checkpoints"].([]any)[0].(map[string]any); got["name"] != "base" || got["time"] != "2025-01-02T03:04:05Z" {
		t.Errorf("created: %v", got)
	}
	fails(t, s, "checkpoint", `{"action":"create","name":"base"}`, "checkpoint exists: base")
	check(call(t, s, "checkpoint", `{"action":"diff","name":"base"}`), "Nothing changed since checkpoint base.")

	mustWrite(t, f, "/src/a.txt", "edited\n")
	mustWrite(t, f, "/src/c.txt", "C\n")
	mustWrite(t, f, "/other.txt", "o\n")
	if err := f.Remove(bg, "/src/b.txt", nil); err != nil {
		t.Fatal(err)
	}
	m = check(call(t, s, "checkpoint", `{"action":"diff","name":"base"}`),
		"added /other.txt\nmodified /src/a.txt\n(the first 2 differences, limit Checkpoint.MaxList; pass path to see one subtree)")
	if m["truncated"] != true || len(m["changes"].([]any)) != 2 {
		t.Errorf("diff: %v", m)
	}
	check(call(t, s, "checkpoint", `{"action":"diff","name":"base","path":"/src/b.txt"}`), "deleted /src/b.txt")

	check(call(t, s, "checkpoint", `{"action":"restore","name":"base","path":"src"}`),
		"Restored checkpoint base: 1 removed, 1 created, 1 updated.")
	if data, _ := f.ReadFile(bg, "/src/b.txt"); string(data) != "B\n" {
		t.Errorf("b.txt after restore: %q", data)
	}
	if data, _ := f.ReadFile(bg, "/other.txt"); string(data) != "o\n" {
		t.Errorf("a restore of /src changed /other.txt: %q", data)
	}
	m = check(call(t, s, "checkpoint", `{"action":"restore","name":"base","path":"/src"}`), "Nothing to restore: the files equal checkpoint base.")
	if m["removed"] != 0.0 || m["created"] != 0.0 || m["updated"] != 0.0 {
		t.Errorf("empty restore: %v", m)
	}

	check(call(t, s, "checkpoint", `{"action":"create","name":"two"}`), "Checkpoint two records 5 entries (6 bytes of files). Restore it with action restore.")
	check(call(t, s, "checkpoint", `{"action":"create","name":"three"}`), "Checkpoint three records 5 entries (6 bytes of files). Restore it with action restore.")
	m = check(call(t, s, "checkpoint", `{"action":"list"}`),
		"The newest 2 checkpoints (limit Checkpoint.MaxList):\ntwo\t2025-01-02T03:04:05Z\t5 entries\nthree\t2025-01-02T03:04:05Z\t5 entries")
	var names []string
	for _, c := range m["checkpoints"].([]any) {
		names = append(names, c.(map[string]any)["name"].(string))
	}
	if !slices.Equal(names, []string{"two", "three"}) || m["truncated"] != true {
		t.Errorf("list: %v", m)
	}

	// A restore while a run is in flight is refused.
	h, err := ws.Runtime().Exec(bg, "hang", runtime.ExecOptions{Backend: "sh"})
	if err != nil {
		t.Fatal(err)
	}
	fails(t, s, "checkpoint", `{"action":"restore","name":"base"}`,
		"cannot restore while run "+h.ID+" is in flight (wait for it, kill it, or force the restore)")
	ws.Runtime().KillExec(bg, h.ID)
	h.Result(bg)

	fails(t, s, "checkpoint", `{"action":"restore","name":"nosuch"}`, "no such checkpoint: nosuch")
	fails(t, s, "checkpoint", `{"action":"rewind"}`, `action must be "create", "list", "diff", "restore" or "undo", got "rewind"`)
	fails(t, s, "checkpoint", `{"action":"create"}`, "checkpoint create needs a name")
	fails(t, s, "checkpoint", `{"action":"list","path":"/x"}`, "path applies to diff and restore, not list")
	fails(t, s, "checkpoint", `{}`, "invalid arguments for checkpoint: action is required")
}

// With EachCall, every call that may change files is bracketed by
// checkpoints and says how to undo it; the undo action reverts exactly
// that call, and its own undo redoes it.
func TestCheckpointEachCall(t *testing.T) {
	s, ws := newExecSet(t, Options{Checkpoint: CheckpointOptions{Enabled: true, EachCall: true}})
	f := ws.FS()
	mustWrite(t, f, "/f.txt", "line 1\nline 2\n")
	before, _ := f.Stat(bg, "/f.txt")
	hint := regexp.MustCompile(`\nUndo this call with checkpoint \{"action":"undo","name":"(call-[0-9A-Z]{26})"\}\.$`)
	edit := call(t, s, "edit", editArgs("/f.txt", [2]string{"line 2\n", "line two\n"}))
	m := hint.FindStringSubmatch(text(edit))
	if edit.IsError || m == nil {
		t.Fatalf("edit: %q", text(edit))
	}
	w := call(t, s, "write", `{"path":"/g.txt","content":"g"}`)
	mw := hint.FindStringSubmatch(text(w))
	if mw == nil {
		t.Fatalf("write: %q", text(w))
	}
	// Reads and dry runs take no checkpoints.
	for _, c := range [][2]string{{"read", `{"path":"/f.txt"}`}, {"edit", `{"path":"/f.txt","dryRun":true,"edits":[{"oldText":"line 1","newText":"x"}]}`}} {
		if r := call(t, s, c[0], c[1]); hint.MatchString(text(r)) {
			t.Errorf("%s %s has an undo: %q", c[0], c[1], text(r))
		}
	}

	// Undo the edit alone: the write stays.
	r := call(t, s, "checkpoint", `{"action":"undo","name":"`+m[1]+`"}`)
	redo := regexp.MustCompile(`^Undid ` + m[1] + `: 1 paths put back \(0 removed, 0 created, 1 updated\)\. Undo the undo with \{"action":"undo","name":"(undo-[0-9A-Z]{26})"\}\.$`).FindStringSubmatch(text(r))
	if r.IsError || redo == nil {
		t.Fatalf("undo: %q", text(r))
	}
	data, _ := f.ReadFile(bg, "/f.txt")
	after, _ := f.Stat(bg, "/f.txt")
	if string(data) != "line 1\nline 2\n" || !after.Mtime.Equal(before.Mtime) {
		t.Errorf("after undo: %q (mtime %v, want %v)", data, after.Mtime, before.Mtime)
	}
	if data, _ := f.ReadFile(bg, "/g.txt"); string(data) != "g" {
		t.Errorf("undo of the edit changed g.txt: %q", data)
	}
	ok(t, s, "checkpoint", `{"action":"undo","name":"`+redo[1]+`"}`)
	if data, _ := f.ReadFile(bg, "/f.txt"); string(data) != "line 1\nline two\n" {
		t.Errorf("after redo: %q", data)
	}
	// A later change conflicts.
	ok(t, s, "write", `{"path":"/g.txt","content":"later"}`)
	fails(t, s, "checkpoint", `{"action":"undo","name":"`+mw[1]+`"}`, "1 paths changed since, nothing was reverted: /g.txt (modified)")

	plain, _ := newSet(t, Options{Checkpoint: CheckpointOptions{Enabled: true, EachCall: true}})
	if r := ok(t, plain, "write", `{"path":"/x","content":"x"}`); hint.MatchString(text(r)) {
		t.Errorf("a set without a runtime brackets calls: %q", text(r))
	}
	fails(t, plain, "checkpoint", `{"action":"undo","name":"x"}`, "undo needs the workspace's runtime (Options.Runtime)")
}
