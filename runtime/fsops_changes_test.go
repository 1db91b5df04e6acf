package runtime_test

import (
	"encoding/json"
	"testing"

	"github.com/nookdev/nook/runtime"
)

func TestFSOpsChanges(t *testing.T) {
	e := newFSEnv(t, runtime.ReadOnly)
	e.put("/workspace/a", "1")
	head := e.ok("changes", "since", -1).(map[string]any)
	since := head["rev"].(float64)
	e.put("/workspace/b", "2")
	e.put("/outside", "3")
	got := e.ok("changes", "since", since).(map[string]any)
	b, _ := json.Marshal(got["changes"])
	if string(b) != `[{"kind":"file","op":"create","path":"/workspace/b"}]` {
		t.Errorf("changes = %s", b)
	}
	if got["rev"].(float64) <= since {
		t.Errorf("rev %v did not move past %v", got["rev"], since)
	}
	again := e.ok("changes", "since", got["rev"]).(map[string]any)
	if n := len(again["changes"].([]any)); n != 0 || again["rev"] != got["rev"] {
		t.Errorf("no new changes: %v", again)
	}
}
