package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nookdev/nook/vfs"
)

// A dry run of edit returns the diff and firstChangedLine the edit would
// have, the hash the file would get, and changes nothing; the real edit
// then reports the same.
func TestEditDryRun(t *testing.T) {
	s, f := newSet(t, Options{})
	mustWrite(t, f, "/f.txt", "one\ntwo\nthree\n")
	before, _ := f.ContentHash(bg, "/f.txt")
	args := `{"path":"/f.txt","edits":[{"oldText":"two","newText":"2"}],"dryRun":true}`
	r := ok(t, s, "edit", args)
	m := structured(t, r)
	wantDiff := "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"
	if m["diff"] != wantDiff || m["firstChangedLine"] != 2.0 || m["dryRun"] != true || m["editsApplied"] != 1.0 {
		t.Errorf("dry run = %v", m)
	}
	if !strings.HasPrefix(text(r), "Dry run, nothing changed: would edit /f.txt: edit 1 at line 2 matched exactly.\n") {
		t.Errorf("text = %q", text(r))
	}
	if got := contentOf(t, f, "/f.txt"); got != "one\ntwo\nthree\n" {
		t.Fatalf("dry run changed the file: %q", got)
	}
	if h, _ := f.ContentHash(bg, "/f.txt"); h != before {
		t.Fatalf("hash changed")
	}
	real := structured(t, ok(t, s, "edit", strings.Replace(args, `,"dryRun":true`, "", 1)))
	if real["diff"] != m["diff"] || real["hash"] != m["hash"] || real["dryRun"] != nil {
		t.Errorf("real edit = %v, dry run = %v", real, m)
	}
	// A dry run fails as the edit would.
	fails(t, s, "edit", `{"path":"/f.txt","edits":[{"oldText":"zzz","newText":"y"}],"dryRun":true}`,
		"Could not find the exact text in /f.txt. The old text must match exactly including all whitespace and newlines.")
}

// A dry run of patch shows each file's diff (an added file from
// /dev/null, a deleted one to it) and changes nothing.
func TestPatchDryRun(t *testing.T) {
	s, f := newSet(t, Options{})
	mustWrite(t, f, "/a.txt", "alpha\nbeta\n")
	mustWrite(t, f, "/gone.txt", "bye\n")
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n alpha\n-beta\n+BETA\n*** Add File: new.txt\n+hello\n*** Delete File: gone.txt\n*** End Patch"
	r := ok(t, s, "patch", jsonArgs(map[string]any{"patch": patch, "dryRun": true}))
	m := structured(t, r)
	want := "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+BETA\n" +
		"--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hello\n" +
		"--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n"
	if m["diff"] != want || m["dryRun"] != true {
		t.Errorf("diff =\n%v\nwant\n%s", m["diff"], want)
	}
	files := m["files"].([]any)
	if len(files) != 3 || files[0].(map[string]any)["firstChangedLine"] != 2.0 || files[1].(map[string]any)["firstChangedLine"] != 1.0 {
		t.Errorf("files = %v", files)
	}
	if !strings.HasPrefix(text(r), "Dry run, nothing changed: the patch would change 3 file(s):\n--- a/a.txt") {
		t.Errorf("text = %q", text(r))
	}
	if contentOf(t, f, "/a.txt") != "alpha\nbeta\n" || contentOf(t, f, "/gone.txt") != "bye\n" {
		t.Error("dry run changed a file")
	}
	if _, err := f.Stat(bg, "/new.txt"); vfs.Code(err) != vfs.ENOENT {
		t.Errorf("dry run added new.txt: %v", err)
	}
}

// Hooks see a dry run as one (Call.DryRun); a path policy lets it pass
// without asking, while the same call for real asks.
func TestDryRunHooksAndPolicy(t *testing.T) {
	var seen []bool
	spy := Hook{Before: func(_ context.Context, c *Call) Verdict {
		seen = append(seen, c.DryRun())
		return Verdict{}
	}}
	s, f := newSet(t, Options{Hooks: []Hook{spy, RequireApproval(ApprovalPolicy{Paths: []string{"/secret/**"}})}, DeferApprovals: true})
	mustWrite(t, f, "/secret/k", "key=1\n")
	r := ok(t, s, "edit", `{"path":"/secret/k","edits":[{"oldText":"1","newText":"2"}],"dryRun":true}`)
	if structured(t, r)["dryRun"] != true {
		t.Fatalf("dry run result = %v", structured(t, r))
	}
	r = call(t, s, "edit", `{"path":"/secret/k","edits":[{"oldText":"1","newText":"2"}]}`)
	if !strings.Contains(text(r), "needs approval") && structured(t, r)["pending"] != true {
		t.Errorf("real edit did not ask: %q %v", text(r), r.Structured)
	}
	ok(t, s, "patch", `{"patch":"*** Begin Patch\n*** Delete File: /secret/k\n*** End Patch","dryRun":true}`)
	if len(seen) != 3 || !seen[0] || seen[1] || !seen[2] {
		t.Errorf("hooks saw dry runs %v, want [true false true]", seen)
	}
	if contentOf(t, f, "/secret/k") != "key=1\n" {
		t.Error("the file changed")
	}
}

func jsonArgs(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
