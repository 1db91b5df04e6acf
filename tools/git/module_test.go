package git

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/vfs"
)

func TestModuleFromJS(t *testing.T) {
	mod, bind := LateModule(Options{Identity: testID})
	ws := newWS(t, nook.WithBackends(js.New(js.Options{})), nook.WithModules(map[string]runtime.Module{ModuleName: mod}),
		nook.WithRuntime(runtime.Options{KeepJournal: true}))
	bind(ws.FS())
	src := `
import fs from "node:fs/promises";
import git, { init, add, commit, status, log, diff } from "ws:git";
export default async function () {
  await init({});
  await fs.writeFile("notes.md", "# notes\n");
  await add({ paths: ["."] });
  const c = await commit({ message: "add notes", date: "2026-01-01T00:00:00Z" });
  await fs.appendFile("notes.md", "more\n");
  const s = await status();
  const d = await diff({ from: "HEAD" });
  const l = await log();
  const out = await git.run({ args: ["log", "--oneline"] });
  let err;
  try { await commit({ message: "" }); } catch (e) { err = e.code + ": " + e.message; }
  return { hash: c.hash, files: s.files, diff: d.diff, subjects: l.commits.map((x) => x.subject), oneline: out.stdout, err };
}`
	h, err := ws.Runtime().Exec(bg, src, runtime.ExecOptions{ID: "g", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil || res.Status != runtime.StatusCompleted {
		t.Fatalf("%v %s %s", err, res.Error, res.Stderr)
	}
	var v struct {
		Hash     string
		Files    []fileStatus
		Diff     string
		Subjects []string
		Oneline  string
		Err      string
	}
	json.Unmarshal(res.Value, &v)
	if len(v.Files) != 1 || v.Files[0].Path != "notes.md" || v.Files[0].Worktree != "M" ||
		!strings.Contains(v.Diff, "+more\n") || strings.Join(v.Subjects, ",") != "add notes" ||
		v.Oneline != v.Hash[:7]+" add notes\n" || v.Err != "ERR_GIT: commit: a message is required" {
		t.Fatalf("result %s", res.Value)
	}
	calls, err := ws.Runtime().Journal(bg, "g")
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, c := range calls {
		if c.Kind == runtime.KindModule {
			ops = append(ops, c.Op)
		}
	}
	if got := strings.Join(ops, " "); got != "ws:git/init ws:git/add ws:git/commit ws:git/status ws:git/diff ws:git/log ws:git/run ws:git/commit" {
		t.Fatalf("journaled module calls: %s", got)
	}
	if err := ws.Runtime().Verify(bg, "g"); err != nil {
		t.Fatal(err)
	}
}

// TestCommitRepeated plays the crashes a replay recovers from: a commit
// that finished but whose result was not journaled, and one interrupted
// after it moved the branch but before it recorded its result.
func TestCommitRepeated(t *testing.T) {
	ws := newWS(t)
	f := ws.FS()
	g := New(f, Options{Identity: testID})
	nookGit(t, g, "init")
	f.WriteFile(bg, "/workspace/a", []byte("a\n"), nil)
	nookGit(t, g, "add", "a")
	m := Module(f, Options{Identity: testID})
	cc := &runtime.CallContext{RunID: "r", CallID: "r/4"}
	args := []any{map[string]any{"message": "one"}}
	first, err := m["commit"](bg, cc, args)
	if err != nil {
		t.Fatal(err)
	}
	again, err := m["commit"](bg, cc, args)
	if err != nil {
		t.Fatalf("repeat: %v", err)
	}
	if mustJSON(first) != mustJSON(again) {
		t.Fatalf("repeat returned %s, first %s", mustJSON(again), mustJSON(first))
	}
	// Interrupted after the commit, before its result was recorded: the
	// pending receipt is all that is left.
	f.WriteFile(bg, "/workspace/a", []byte("b\n"), nil)
	cc = &runtime.CallContext{RunID: "r", CallID: "r/5"}
	args = []any{map[string]any{"message": "two", "all": true}}
	second, err := m["commit"](bg, cc, args)
	if err != nil {
		t.Fatal(err)
	}
	var rf receiptFile
	b, _ := f.ReadFile(bg, "/.nook/runs/r/calls/5.json")
	json.Unmarshal(b, &rf)
	var res commitOut
	json.Unmarshal(rf.Result, &res)
	cm := mustCommit(t, g, res.Hash)
	pend, _ := json.Marshal(pendingCommit{Parent: res.Parents[0], When: cm.Committer.When.Unix()})
	rf.State, rf.Pending, rf.Result = "pending", pend, nil
	b, _ = json.Marshal(rf)
	f.WriteFile(bg, "/.nook/runs/r/calls/5.json", b, nil)
	again, err = m["commit"](bg, cc, args)
	if err != nil {
		t.Fatalf("repeat after the commit: %v", err)
	}
	if mustJSON(second) != mustJSON(again) {
		t.Fatalf("repeat returned %s, first %s", mustJSON(again), mustJSON(second))
	}
	if n := nookGit(t, g, "log", "--oneline"); strings.Count(n, "\n") != 2 {
		t.Fatalf("log after repeats:\n%s", n)
	}
	// Interrupted before the commit: the repeat commits, with the time
	// the first attempt chose.
	f.WriteFile(bg, "/workspace/a", []byte("c\n"), nil)
	cc = &runtime.CallContext{RunID: "r", CallID: "r/6"}
	args = []any{map[string]any{"message": "three", "all": true}}
	rf = receiptFile{Fn: "commit", State: "pending"}
	rf.Args, _ = json.Marshal(args[0])
	rf.Pending, _ = json.Marshal(pendingCommit{Parent: second.(map[string]any)["hash"].(string), When: 1767225600})
	b, _ = json.Marshal(rf)
	f.WriteFile(bg, "/.nook/runs/r/calls/6.json", b, nil)
	third, err := m["commit"](bg, cc, args)
	if err != nil {
		t.Fatal(err)
	}
	if cm := mustCommit(t, g, third.(map[string]any)["hash"].(string)); cm.Committer.When.Unix() != 1767225600 {
		t.Fatalf("commit time %v", cm.Committer.When)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func mustCommit(t *testing.T, g *Git, hash string) commitInfoTime {
	t.Helper()
	res, err := g.Call(bg, nil, "log", map[string]any{"rev": hash, "max": float64(1)})
	if err != nil {
		t.Fatal(err)
	}
	c := res.(map[string]any)["commits"].([]any)[0].(map[string]any)
	var ci commitInfoTime
	ci.Committer.When, _ = parseDate(c["committer"].(map[string]any)["date"].(string))
	return ci
}

type commitInfoTime struct {
	Committer struct{ When time.Time }
}

// TestConfined checks that no directory, path or symlink takes git out of
// its root.
func TestConfined(t *testing.T) {
	ws := newWS(t)
	f := ws.FS()
	f.WriteFile(bg, "/outside/repo/x", []byte("x"), &vfs.WriteOptions{MkdirAll: true})
	g := New(f, Options{Identity: testID})
	if o := g.Run(bg, []string{"init"}, "/outside/repo"); o.ExitCode == 0 || !strings.Contains(o.Stderr, "outside /workspace") {
		t.Fatalf("init outside the root: %+v", o)
	}
	f.MkdirAll(bg, "/workspace", 0o755)
	f.Symlink(bg, "/outside/repo", "/workspace/link")
	if o := g.Run(bg, []string{"init"}, "/workspace/link"); o.ExitCode == 0 {
		t.Fatalf("init through a symlink out of the root: %+v", o)
	}
	if o := g.Run(bg, []string{"init", "../outside"}, ""); o.ExitCode == 0 {
		t.Fatalf("init ../outside: %+v", o)
	}
	nookGit(t, g, "init")
	if o := g.Run(bg, []string{"add", "../outside/repo/x"}, ""); o.ExitCode == 0 {
		t.Fatalf("add outside: %+v", o)
	}
	// A .git that is a symlink out of the root is not followed.
	f.MkdirAll(bg, "/outside/r2/.git", 0o755)
	f.MkdirAll(bg, "/workspace/p", 0o755)
	f.Symlink(bg, "/outside/r2/.git", "/workspace/p/.git")
	if o := g.Run(bg, []string{"status"}, "/workspace/p"); o.ExitCode == 0 {
		t.Fatalf("status through .git -> outside: %+v", o)
	}
	if _, err := f.Stat(bg, "/outside/r2/.git/HEAD"); err == nil {
		t.Fatal("git wrote outside the root")
	}
}

// TestRunCommitRepeated: a command line that commits, repeated after a
// crash that kept its result out of the journal, commits once and prints
// what the first attempt printed.
func TestRunCommitRepeated(t *testing.T) {
	ws := newWS(t)
	f := ws.FS()
	clock := time.Unix(1767225600, 0).UTC()
	opts := Options{Identity: testID, Now: func() time.Time { return clock }}
	g := New(f, opts)
	nookGit(t, g, "init", "-q")
	f.WriteFile(bg, "/workspace/a", []byte("a\n"), nil)
	nookGit(t, g, "add", "a")
	m := Module(f, opts)
	cc := &runtime.CallContext{RunID: "r", CallID: "r/7"}
	args := []any{map[string]any{"args": []any{"commit", "-qam", "one"}}}
	first, err := m["run"](bg, cc, args)
	if err != nil {
		t.Fatal(err)
	}
	head := strings.TrimSpace(nookGit(t, g, "rev-parse", "HEAD"))
	// The crash: the receipt holds only what was recorded before the
	// commit (its clock and parent); the clock has moved on since.
	var rf receiptFile
	b, _ := f.ReadFile(bg, "/.nook/runs/r/calls/7.json")
	if err := json.Unmarshal(b, &rf); err != nil || rf.State != "done" {
		t.Fatalf("receipt %s: %v", b, err)
	}
	rf.State, rf.Result = "pending", nil
	rf.Pending, _ = json.Marshal(pendingCommit{Parent: plumbing.ZeroHash.String(), When: clock.Unix()})
	b, _ = json.Marshal(rf)
	f.WriteFile(bg, "/.nook/runs/r/calls/7.json", b, nil)
	clock = clock.Add(time.Hour)
	again, err := m["run"](bg, cc, args)
	if err != nil {
		t.Fatal(err)
	}
	if mustJSON(first) != mustJSON(again) {
		t.Fatalf("repeat printed %s, first %s", mustJSON(again), mustJSON(first))
	}
	if n := nookGit(t, g, "log", "--format=%H"); n != head+"\n" {
		t.Fatalf("history after the repeat:\n%s", n)
	}
	// Interrupted before the commit: the repeat commits at the recorded time.
	f.WriteFile(bg, "/workspace/a", []byte("b\n"), nil)
	cc = &runtime.CallContext{RunID: "r", CallID: "r/8"}
	args = []any{map[string]any{"args": []any{"commit", "-qam", "two"}}}
	rf = receiptFile{Fn: "run", State: "pending"}
	rf.Args, _ = json.Marshal(args[0])
	rf.Pending, _ = json.Marshal(pendingCommit{Parent: head, When: 1767225660})
	b, _ = json.Marshal(rf)
	f.WriteFile(bg, "/.nook/runs/r/calls/8.json", b, nil)
	if _, err := m["run"](bg, cc, args); err != nil {
		t.Fatal(err)
	}
	if n := nookGit(t, g, "log", "-1", "--format=%ct %s"); n != "1767225660 two\n" {
		t.Fatalf("repeated commit: %q", n)
	}
}

// TestRunMergeRepeatedAfterCheckout: a merge killed after it wrote the
// worktree but before the repository's files (the index among them) were
// written leaves the files it checked out untracked; the repeat removes
// them, merges as the first attempt did and prints what it printed, and
// leaves alone an untracked file that was there before.
func TestRunMergeRepeatedAfterCheckout(t *testing.T) {
	ws := newWS(t)
	f := ws.FS()
	clock := time.Unix(1767225600, 0).UTC()
	opts := Options{Identity: testID, Now: func() time.Time { return clock }}
	g := New(f, opts)
	nookGit(t, g, "init", "-q")
	f.WriteFile(bg, "/workspace/a.txt", []byte("one\ntwo\nthree\n"), nil)
	nookGit(t, g, "add", "a.txt")
	nookGit(t, g, "commit", "-qm", "first")
	nookGit(t, g, "checkout", "-qb", "feature")
	f.WriteFile(bg, "/workspace/a.txt", []byte("one\ntwo\nTHREE\n"), nil)
	f.WriteFile(bg, "/workspace/sub/f.txt", []byte("f\n"), &vfs.WriteOptions{MkdirAll: true})
	nookGit(t, g, "add", ".")
	nookGit(t, g, "commit", "-qm", "feature")
	nookGit(t, g, "checkout", "-q", "main")
	f.WriteFile(bg, "/workspace/a.txt", []byte("ONE\ntwo\nthree\n"), nil)
	nookGit(t, g, "commit", "-qam", "main")
	// Untracked, and the same content as a blob the merge checks out.
	f.WriteFile(bg, "/workspace/keep.txt", []byte("f\n"), nil)

	gitFiles := func() map[string][]byte {
		l, err := f.Find(bg, "/workspace/.git", "", &vfs.FindOptions{Exclude: []string{"objects"}})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]byte{}
		for _, e := range l.Entries {
			if e.Kind == vfs.TypeFile {
				out[strings.TrimPrefix(e.Path, "/workspace/.git/")], _ = f.ReadFile(bg, e.Path)
			}
		}
		return out
	}
	before := gitFiles()
	m := Module(f, opts)
	cc := &runtime.CallContext{RunID: "r", CallID: "r/9"}
	args := []any{map[string]any{"args": []any{"merge", "feature"}}}
	first, err := m["run"](bg, cc, args)
	if err != nil {
		t.Fatal(err)
	}
	if out := first.(map[string]any); out["exitCode"] != 0.0 || !strings.Contains(out["stdout"].(string), "Merge made by the 'ort' strategy.") {
		t.Fatalf("merge: %s", mustJSON(first))
	}
	head := nookGit(t, g, "rev-parse", "HEAD")

	// The crash: the worktree is merged, the repository's files are as
	// they were, and the receipt is the pending one the merge wrote first.
	for rel := range gitFiles() {
		if _, ok := before[rel]; !ok {
			f.Remove(bg, "/workspace/.git/"+rel, nil)
		}
	}
	for rel, b := range before {
		f.WriteFile(bg, "/workspace/.git/"+rel, b, nil)
	}
	var rf receiptFile
	b, _ := f.ReadFile(bg, "/.nook/runs/r/calls/9.json")
	if err := json.Unmarshal(b, &rf); err != nil || rf.State != "done" {
		t.Fatalf("receipt %s: %v", b, err)
	}
	parent := strings.TrimSpace(nookGit(t, g, "rev-parse", "HEAD"))
	rf.State, rf.Result = "pending", nil
	rf.Pending, _ = json.Marshal(pendingCommit{Parent: parent, When: clock.Unix(),
		Before: &snapshot{Git: before, Untracked: []string{"keep.txt"}}})
	b, _ = json.Marshal(rf)
	f.WriteFile(bg, "/.nook/runs/r/calls/9.json", b, nil)
	if st := nookGit(t, g, "status", "--porcelain"); st != " M a.txt\n?? keep.txt\n?? sub/\n" {
		t.Fatalf("status after the crash:\n%s", st)
	}

	again, err := m["run"](bg, cc, args)
	if err != nil {
		t.Fatal(err)
	}
	if mustJSON(first) != mustJSON(again) {
		t.Fatalf("repeat printed %s, first %s", mustJSON(again), mustJSON(first))
	}
	if got := nookGit(t, g, "rev-parse", "HEAD"); got != head {
		t.Fatalf("HEAD after the repeat %s, first %s", got, head)
	}
	if st := nookGit(t, g, "status", "--porcelain"); st != "?? keep.txt\n" {
		t.Fatalf("status after the repeat:\n%s", st)
	}
}
