package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// checkpoint, checkpoints, diff and restore on a workspace file, in text
// and JSON.
func TestCheckpointCommands(t *testing.T) {
	w := newWS(t)
	w.put("/a.txt", "hi\n")
	w.put("/d/b.txt", "x\n")
	equal(t, "checkpoint", w.ok("checkpoint", "c1"), "checkpoint c1 at revision 3: 4 entries, 5 B (wrote 4 nodes, 3 entries)\n")
	doc := jsonDoc(t, "checkpoint --json", w.ok("checkpoint", "--json", "c2"))
	if doc["name"] != "c2" || doc["rev"] != 3.0 || doc["entries"] != 4.0 || doc["bytes"] != 5.0 ||
		!reflectEqual(doc["written"], map[string]any{"nodes": 0.0, "entries": 0.0, "full": false}) {
		t.Errorf("checkpoint --json: %v", doc)
	}
	w.fail(1, "nook: checkpoint exists: c1 (EEXIST)\n", "checkpoint", "c1")

	w.put("/a.txt", "changed\n")
	w.ok("mv", "/d", "/e")
	w.put("/n.txt", "new\n")
	equal(t, "diff c1", w.ok("diff", "c1"), "M /a.txt (content, times)\nR /d -> /e\nA /n.txt\n")
	equal(t, "diff --patch c1", w.ok("diff", "--patch", "c1"),
		"M /a.txt (content, times)\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-hi\n+changed\nR /d -> /e\nA /n.txt\n")
	equal(t, "diff --path", w.ok("diff", "c1", "--path", "/n.txt"), "A /n.txt\n")
	equal(t, "diff of equal checkpoints", w.ok("--json", "diff", "c1", "c2"), `{"changes":[],"from":"c1","to":"c2"}`+"\n")
	equal(t, "diff --json", w.ok("--json", "diff", "c1"), `{"changes":[{"op":"modified","path":"/a.txt","type":"file","content":true,"times":true},`+
		`{"op":"renamed","path":"/e","oldPath":"/d","type":"dir"},{"op":"added","path":"/n.txt","type":"file"}],"from":"c1","to":""}`+"\n")
	w.fail(1, "nook: no such checkpoint: nosuch (ENOENT)\n", "diff", "nosuch")

	ls := regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d`).ReplaceAllString(w.ok("checkpoints"), "TIME")
	equal(t, "checkpoints", ls, "NAME  REV  TIME                 ENTRIES  SIZE\nc1    3    TIME  4        5 B\nc2    3    TIME  4        5 B\n")

	equal(t, "restore PATH", w.ok("restore", "c1", "a.txt"), "restored c1 at revision 7: 0 removed, 0 created, 1 updated\n")
	equal(t, "cat after restore PATH", w.ok("cat", "/a.txt"), "hi\n")
	equal(t, "restore --json", w.ok("--json", "restore", "c1"), `{"checkpoint":"c1","compared":7,"created":2,"removed":2,"rev":8,"updated":0}`+"\n")
	equal(t, "restore again", w.ok("restore", "c1"), "nothing to restore: the tree equals checkpoint c1\n")
	equal(t, "ls after restore", w.ok("ls", "/"), "a.txt\nd\n")
	equal(t, "cat after restore", w.ok("cat", "/d/b.txt"), "x\n")
	equal(t, "diff after restore", w.ok("diff", "c1"), "")
	w.fail(1, "nook: no such checkpoint: nosuch (ENOENT)\n", "restore", "nosuch")

	equal(t, "checkpoint --delete", w.ok("checkpoint", "--delete", "c2"), "deleted checkpoint c2\n")
	w.fail(1, "nook: no such checkpoint: c2 (ENOENT)\n", "checkpoint", "--delete", "c2")
	var list struct {
		Checkpoints []struct {
			Name string `json:"name"`
			Rev  int64  `json:"rev"`
		} `json:"checkpoints"`
	}
	if err := json.Unmarshal([]byte(w.ok("--json", "checkpoints")), &list); err != nil || len(list.Checkpoints) != 1 || list.Checkpoints[0].Name != "c1" {
		t.Errorf("checkpoints --json after delete: %+v %v", list, err)
	}
	w.fail(2, "nook: checkpoint: missing argument\nusage: nook checkpoint NAME | --delete NAME\nRun 'nook help checkpoint' for details.\n", "checkpoint")
}

// nook undo reverts a run started with --checkpoint, conflicts when a file
// it changed was changed since, and its own undo takes it back.
func TestUndoCommand(t *testing.T) {
	w := newWS(t)
	w.put("/workspace/a.txt", "A\n")
	w.ok("exec", "--checkpoint", "--id", "r1", "--backend", "shell", "-e", "echo B > a.txt; echo new > n.txt")
	w.put("/workspace/a.txt", "later\n")
	w.fail(1, "nook: 1 paths changed since, nothing was reverted: /workspace/a.txt (modified) (ESTALE)\n", "undo", "r1")
	w.put("/workspace/a.txt", "B\n")
	out := w.ok("undo", "r1")
	m := regexp.MustCompile(`^undid r1: 2 paths \(1 removed, 0 created, 1 updated\) at revision \d+\nto take it back: nook undo (undo-[0-9A-Z]{26})\n$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("undo r1:\n%s", out)
	}
	equal(t, "a.txt after undo", w.ok("cat", "/workspace/a.txt"), "A\n")
	equal(t, "ls after undo", w.ok("ls", "/workspace"), "a.txt\n")
	doc := jsonDoc(t, "runs undo --json", w.ok("--json", "runs", "undo", m[1]))
	if doc["run"] != m[1] || !reflectEqual(doc["paths"], []any{"/workspace/a.txt", "/workspace/n.txt"}) || doc["created"] != 1.0 {
		t.Errorf("undo of the undo: %v", doc)
	}
	equal(t, "n.txt after redo", w.ok("cat", "/workspace/n.txt"), "new\n")
	w.ok("exec", "--id", "plain", "--backend", "shell", "-e", "true")
	w.fail(1, "nook: run plain has no checkpoints: it was not started with Checkpoint, or they were pruned (limit MaxRunCheckpoints, 50 runs) (ENOENT)\n", "undo", "plain")
}

// A restore while a run of another process is in flight is refused with
// EBUSY, unless forced.
func TestRestoreDuringRun(t *testing.T) {
	w := newWS(t)
	w.put("/workspace/a.txt", "1")
	w.ok("checkpoint", "c1")
	w.put("/workspace/a.txt", "2")
	_, out := w.startExec("--id", "slow", "-e", `console.log("started"); await new Promise((r) => setTimeout(r, 60000));`)
	equal(t, "first line", readLine(t, out), "started\n")
	w.fail(1, "nook: cannot restore while run slow is in flight (wait for it, kill it, or force the restore) (EBUSY)\n", "restore", "c1")
	r := w.run("--json", "restore", "c1")
	if r.code != 1 || r.stderr != `{"code":"EBUSY","error":"cannot restore while run slow is in flight (wait for it, kill it, or force the restore)","id":"slow","op":"restore"}`+"\n" {
		t.Errorf("restore --json during a run: %+v", r)
	}
	equal(t, "a.txt after the refused restore", w.ok("cat", "/workspace/a.txt"), "2")
	w.fail(1, "nook: cannot fork while run slow is in flight (wait for it, kill it, or force the fork) (EBUSY)\n", "fork", "c1", filepath.Join(t.TempDir(), "f.db"))
	equal(t, "restore --force", w.ok("restore", "--force", "c1"), "restored c1 at revision 4: 0 removed, 0 created, 1 updated\n")
	equal(t, "a.txt after restore --force", w.ok("cat", "/workspace/a.txt"), "1")
}

func reflectEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// nook fork copies the workspace at a checkpoint into a new file that
// then diverges on its own.
func TestForkCommand(t *testing.T) {
	w := newWS(t)
	w.put("/a.txt", "one\n")
	w.ok("checkpoint", "c1")
	w.put("/a.txt", "two\n")
	w.put("/b.txt", "b\n")
	fork := filepath.Join(t.TempDir(), "fork.db")
	out := w.ok("fork", "c1", fork)
	if !regexp.MustCompile(`^forked checkpoint c1 into ` + regexp.QuoteMeta(fork) + ` \(\d+\.\d KiB\)\n$`).MatchString(out) {
		t.Errorf("fork: %q", out)
	}
	f := &ws{t: t, db: fork}
	equal(t, "cat in the fork", f.ok("cat", "/a.txt"), "one\n")
	equal(t, "ls in the fork", f.ok("ls", "/"), "a.txt\n")
	equal(t, "diff in the fork", f.ok("diff", "c1"), "")
	equal(t, "cat in the original", w.ok("cat", "/a.txt"), "two\n")
	f.put("/c.txt", "fork's own\n")
	equal(t, "diff in the fork after a change", f.ok("diff", "c1"), "A /c.txt\n")
	equal(t, "diff in the original", w.ok("diff", "c1"), "M /a.txt (content, times)\nA /b.txt\n")
	w.fail(1, "nook: file exists: "+fork+" (EEXIST)\n", "fork", "c1", fork)
	w.fail(1, "nook: no such checkpoint: nosuch (ENOENT)\n", "fork", "nosuch", filepath.Join(t.TempDir(), "x.db"))
	doc := jsonDoc(t, "fork --json", w.ok("--json", "fork", "c1", filepath.Join(t.TempDir(), "y.db")))
	if doc["checkpoint"] != "c1" || doc["bytes"].(float64) <= 0 || doc["rev"].(float64) <= 0 {
		t.Errorf("fork --json: %v", doc)
	}
}

// nook tool --checkpoint-tool: the checkpoint tool, and an undo for every
// file-changing call.
func TestCheckpointToolFlag(t *testing.T) {
	w := newWS(t)
	w.put("/a.txt", "one\n")
	r := w.run("tool", "checkpoint", `{"action":"list"}`)
	if r.code != 1 || !strings.HasPrefix(r.stderr, `nook: unknown tool "checkpoint"`) {
		t.Errorf("checkpoint without the flag: %+v", r)
	}
	out := w.ok("tool", "--checkpoint-tool", "write", `{"path":"/a.txt","content":"two\n"}`)
	m := regexp.MustCompile(`^Overwrote /a.txt \(4 bytes\)\nUndo this call with checkpoint \{"action":"undo","name":"(call-[0-9A-Z]{26})"\}\.\n$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("write with --checkpoint-tool: %q", out)
	}
	out = w.ok("tool", "--checkpoint-tool", "checkpoint", `{"action":"undo","name":"`+m[1]+`"}`)
	if !strings.HasPrefix(out, "Undid "+m[1]+": 1 paths put back (0 removed, 0 created, 1 updated).") {
		t.Errorf("undo: %q", out)
	}
	equal(t, "a.txt after the undo", w.ok("cat", "/a.txt"), "one\n")
}
