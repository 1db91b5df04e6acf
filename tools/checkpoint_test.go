package tools

import (
	"encoding/json"
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
	fails(t, s, "checkpoint", `{"action":"undo"}`, `action must be "create", "list", "diff" or "restore", got "undo"`)
	fails(t, s, "checkpoint", `{"action":"create"}`, "checkpoint create needs a name")
	fails(t, s, "checkpoint", `{"action":"list","path":"/x"}`, "path applies to diff and restore, not list")
	fails(t, s, "checkpoint", `{}`, "invalid arguments for checkpoint: action is required")
}
