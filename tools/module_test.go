package tools

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/wasm"
	"github.com/nookdev/nook/vfs"
)

// TestMain lets the test binary be the process a crash test kills: with
// NOOK_TOOLS_CHILD set it opens the workspace NOOK_TOOLS_DB, starts
// editLoop as run "k" under the replay policy, prints "started" and waits
// for the run to end.
func TestMain(m *testing.M) {
	if db := os.Getenv("NOOK_TOOLS_CHILD"); db != "" {
		ctx := context.Background()
		ws, err := openToolsWS(db, false)
		if err != nil {
			panic(err)
		}
		h, err := ws.Runtime().Exec(ctx, editLoop, runtime.ExecOptions{ID: "k", OnInterrupt: runtime.PolicyReplay})
		if err != nil {
			panic(err)
		}
		os.Stdout.WriteString("started\n")
		h.Wait(ctx)
		ws.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// openToolsWS opens the workspace db with the JavaScript backend and
// ws:tools over a full tool set (a read-only one with readOnly).
func openToolsWS(db string, readOnly bool, more ...nook.Option) (*nook.Workspace, error) {
	mod, bind := LateModule(Options{ReadOnly: readOnly})
	opts := append([]nook.Option{nook.WithBackends(js.New(js.Options{})),
		nook.WithModules(map[string]runtime.Module{ModuleName: mod})}, more...)
	ws, err := nook.Open(context.Background(), db, opts...)
	if err != nil {
		return nil, err
	}
	bind(New(ws.FS(), Options{ReadOnly: readOnly, Runtime: ws.Runtime()}))
	return ws, nil
}

// seedTree writes the tree editLoop works on: 24 files, two in three with
// TODO markers, and one that is not code.
func seedTree(t testing.TB, f *vfs.FS) {
	t.Helper()
	for i := range 24 {
		body := fmt.Sprintf("package p%d\n\nfunc F%d() {}\n", i, i)
		if i%3 != 0 {
			body += fmt.Sprintf("// TODO: make F%d faster\n// TODO: test F%d\n", i, i)
		}
		if err := f.WriteFile(bg, fmt.Sprintf("/workspace/src/d%d/f%02d.go", i%4, i), []byte(body), &vfs.WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.WriteFile(bg, "/workspace/src/NOTES.txt", []byte("TODO list\n"), nil); err != nil {
		t.Fatal(err)
	}
}

// editLoop greps the tree through ws:tools and edits every match in a
// loop (each edit would double "(done)" if it ran twice), reads each file
// back, writes a report and deletes the notes, printing as it goes.
const editLoop = `
import tools, { grep, edit, read, write } from "ws:tools";

const pause = (ms) => new Promise((res) => setTimeout(res, ms));

export default async function () {
  const hits = await grep({ query: "TODO", path: "/workspace/src", include: ["**/*.go"], output: "files" });
  console.log("files with TODO: " + hits.count);
  const edited = [];
  for (const f of hits.files) {
    const before = await read({ path: f.path });
    const e = await edit({ path: f.path, edits: [{ oldText: "TODO", newText: "TODO(done)", replaceAll: true }],
      expectedHash: before.hash });
    console.log("edited " + e.path + " " + e.matches[0].replacements + " " + e.hash);
    edited.push(e.path);
    await pause(5);
  }
  const left = await grep({ query: "TODO:", path: "/workspace/src", include: ["**/*.go"] });
  console.log("left: " + left.count);
  const w = await write({ path: "/workspace/report.txt", content: edited.join("\n") + "\n" });
  const d = await tools.delete({ path: "/workspace/src/NOTES.txt" });
  console.log("report " + w.bytes + " deleted " + d.deleted);
  return { edited: edited.length, left: left.count, created: w.created, deleted: d.deleted };
}`

// workspaceTree is every file under /workspace by path.
func workspaceTree(t testing.TB, f *vfs.FS) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := fs.WalkDir(f.IOFS(), "workspace", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(f.IOFS(), p)
		files[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestModuleGrepEditLoop(t *testing.T) {
	db := filepath.Join(t.TempDir(), "ws.db")
	ws, err := openToolsWS(db, false, nook.WithRuntime(runtime.Options{KeepJournal: true}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	seedTree(t, ws.FS())
	h, err := ws.Runtime().Exec(bg, editLoop, runtime.ExecOptions{ID: "k", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusCompleted {
		t.Fatalf("%s: %s\n%s", res.Status, res.Error, res.Stderr)
	}
	if got, want := string(res.Value), `{"edited":16,"left":0,"created":true,"deleted":true}`; got != want {
		t.Fatalf("value %s, want %s", got, want)
	}
	files := workspaceTree(t, ws.FS())
	if strings.Count(files["workspace/src/d1/f01.go"], "TODO(done): ") != 2 || strings.Contains(files["workspace/src/d1/f01.go"], "(done)(done)") {
		t.Fatalf("f01.go:\n%s", files["workspace/src/d1/f01.go"])
	}
	if _, ok := files["workspace/src/NOTES.txt"]; ok {
		t.Fatal("NOTES.txt not deleted")
	}
	// The calls are in the run's journal, and the run replays.
	calls, err := ws.Runtime().Journal(bg, "k")
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]int{}
	for _, c := range calls {
		ops[c.Op]++
	}
	if ops["ws:tools/edit"] != 16 || ops["ws:tools/read"] != 16 || ops["ws:tools/grep"] != 2 || ops["ws:tools/delete"] != 1 {
		t.Fatalf("journal ops %v", ops)
	}
	if err := ws.Runtime().Verify(bg, "k"); err != nil {
		t.Fatalf("verify: %v", err)
	}
}

func TestModuleToolErrorIsException(t *testing.T) {
	ws, err := openToolsWS(filepath.Join(t.TempDir(), "ws.db"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.FS().WriteFile(bg, "/workspace/a.txt", []byte("hello\n"), &vfs.WriteOptions{MkdirAll: true})
	src := `
import { read, edit } from "ws:tools";
export default async function () {
  const out = [];
  for (const f of [() => read({ path: "/workspace/missing.txt" }),
                   () => edit({ path: "/workspace/a.txt", edits: [{ oldText: "bye", newText: "x" }] }),
                   () => read({ nope: 1 }),
                   () => read("a.txt")]) {
    try { await f(); out.push("no error"); } catch (e) { out.push(e.code + ": " + e.message); }
  }
  return out;
}`
	h, err := ws.Runtime().Exec(bg, src, runtime.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil || res.Status != runtime.StatusCompleted {
		t.Fatalf("%v %s %s", err, res.Error, res.Stderr)
	}
	var out []string
	json.Unmarshal(res.Value, &out)
	if len(out) != 4 {
		t.Fatalf("value %s", res.Value)
	}
	// The messages are the tools' own.
	direct := func(name, args string) string {
		set := New(ws.FS(), Options{})
		return ErrTool + ": " + text(call(t, set, name, args))
	}
	if want := direct("read", `{"path":"/workspace/missing.txt"}`); out[0] != want {
		t.Errorf("read of a missing file: %q, want %q", out[0], want)
	}
	if want := direct("edit", `{"path":"/workspace/a.txt","edits":[{"oldText":"bye","newText":"x"}]}`); out[1] != want {
		t.Errorf("failed edit: %q, want %q", out[1], want)
	}
	if !strings.HasPrefix(out[2], "ERR_TOOL: invalid arguments for read") {
		t.Errorf("bad input: %q", out[2])
	}
	if !strings.Contains(out[3], "takes the tool's input as an object") {
		t.Errorf("non-object input: %q", out[3])
	}
}

func TestModuleReadOnly(t *testing.T) {
	ws, err := openToolsWS(filepath.Join(t.TempDir(), "ws.db"), true)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.FS().WriteFile(bg, "/workspace/a.txt", []byte("hello\n"), &vfs.WriteOptions{MkdirAll: true})
	// A named import of a mutating tool fails before the run.
	_, err = ws.Runtime().Exec(bg, `import { edit } from "ws:tools"; export default () => edit`, runtime.ExecOptions{})
	if err == nil || !strings.Contains(err.Error(), "edit") {
		t.Fatalf("import of edit from a read-only module: %v", err)
	}
	// The module has the read-only tools and nothing else.
	src := `
import tools, { read } from "ws:tools";
export default async function () {
  const r = await read({ path: "/workspace/a.txt" });
  return { names: Object.keys(tools).sort(), text: r.content, write: typeof tools.write, del: typeof tools.delete };
}`
	h, err := ws.Runtime().Exec(bg, src, runtime.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil || res.Status != runtime.StatusCompleted {
		t.Fatalf("%v %s %s", err, res.Error, res.Stderr)
	}
	var v struct {
		Names      []string
		Write, Del string
	}
	json.Unmarshal(res.Value, &v)
	if strings.Join(v.Names, ",") != "call,find,grep,ls,read" || v.Write != "undefined" || v.Del != "undefined" {
		t.Fatalf("read-only module: %s", res.Value)
	}
	if b, _ := ws.FS().ReadFile(bg, "/workspace/a.txt"); string(b) != "hello\n" {
		t.Fatalf("a.txt changed: %q", b)
	}
	// Called from Go, a read-only module has no edit function at all.
	mod, _ := LateModule(Options{ReadOnly: true})
	if mod["edit"] != nil || mod["write"] != nil || mod["exec"] != nil || mod["read"] == nil {
		t.Fatalf("read-only module functions: %v", len(mod))
	}
}

// TestModuleRepeatedCall calls mutating functions twice with one call id,
// as a replay does after a crash between a call and its journal record:
// the second call returns the first's result and changes nothing.
func TestModuleRepeatedCall(t *testing.T) {
	set, f := newSet(t, Options{})
	if err := f.WriteFile(bg, "/workspace/a.txt", []byte("foo\n"), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
	m := Module(set)
	cc := &runtime.CallContext{RunID: "r1", CallID: "r1/7"}
	args := []any{map[string]any{"path": "/workspace/a.txt", "edits": []any{map[string]any{"oldText": "foo", "newText": "foo bar"}}}}
	first, err := m["edit"](bg, cc, args)
	if err != nil {
		t.Fatal(err)
	}
	again, err := m["edit"](bg, cc, args)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := mustJSON(first), mustJSON(again); a != b {
		t.Fatalf("repeat returned %s, first %s", b, a)
	}
	if b, _ := f.ReadFile(bg, "/workspace/a.txt"); string(b) != "foo bar\n" {
		t.Fatalf("after a repeated edit: %q", b)
	}
	// Another call (another number) edits again.
	if _, err := m["edit"](bg, &runtime.CallContext{RunID: "r1", CallID: "r1/8"}, args); err != nil {
		t.Fatal(err)
	}
	if b, _ := f.ReadFile(bg, "/workspace/a.txt"); string(b) != "foo bar bar\n" {
		t.Fatalf("after a second edit: %q", b)
	}
	// The same number with other input (a restarted run that took another
	// path) is a new call.
	args2 := []any{map[string]any{"path": "/workspace/a.txt", "edits": []any{map[string]any{"oldText": "bar bar", "newText": "baz"}}}}
	if _, err := m["edit"](bg, cc, args2); err != nil {
		t.Fatal(err)
	}
	if b, _ := f.ReadFile(bg, "/workspace/a.txt"); string(b) != "foo baz\n" {
		t.Fatalf("after an edit with a reused number: %q", b)
	}
	// write, move and delete repeat the same way.
	for i, c := range []struct {
		fn   string
		args map[string]any
	}{
		{"write", map[string]any{"path": "/workspace/n.txt", "content": "x"}},
		{"move", map[string]any{"from": "/workspace/n.txt", "to": "/workspace/m.txt"}},
		{"delete", map[string]any{"path": "/workspace/m.txt"}},
		{"patch", map[string]any{"patch": "*** Begin Patch\n*** Add File: /workspace/p.txt\n+p\n*** End Patch"}},
	} {
		cc := &runtime.CallContext{RunID: "r1", CallID: fmt.Sprintf("r1/%d", 20+i)}
		first, err := m[c.fn](bg, cc, []any{c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.fn, err)
		}
		again, err := m[c.fn](bg, cc, []any{c.args})
		if err != nil {
			t.Fatalf("%s repeated: %v", c.fn, err)
		}
		if a, b := mustJSON(first), mustJSON(again); a != b {
			t.Fatalf("%s: repeat returned %s, first %s", c.fn, b, a)
		}
	}
	// Receipts live in the run's directory, which the runtime deletes with
	// the run.
	if _, err := f.Stat(bg, "/.nook/runs/r1/calls/7.json"); err != nil {
		t.Fatal(err)
	}
	// A failed call leaves no receipt and is simply run again.
	bad := []any{map[string]any{"path": "/workspace/a.txt", "edits": []any{map[string]any{"oldText": "nothing", "newText": "x"}}}}
	cc = &runtime.CallContext{RunID: "r1", CallID: "r1/30"}
	_, err = m["edit"](bg, cc, bad)
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.Code != ErrTool {
		t.Fatalf("failed edit: %v", err)
	}
	if _, err := f.Stat(bg, "/.nook/runs/r1/calls/30.json"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("receipt of a failed call: %v", err)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestModuleReplayAfterKill SIGKILLs a process running editLoop at random
// moments and resumes the run in a fresh process: the run must end with
// the output, value and files of an uninterrupted run, byte for byte.
func TestModuleReplayAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	// The uninterrupted run.
	ref := filepath.Join(dir, "ref.db")
	ws, err := openToolsWS(ref, false)
	if err != nil {
		t.Fatal(err)
	}
	seedTree(t, ws.FS())
	start := time.Now()
	h, err := ws.Runtime().Exec(bg, editLoop, runtime.ExecOptions{ID: "k", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	want, err := h.Result(bg)
	if err != nil || want.Status != runtime.StatusCompleted {
		t.Fatalf("%v %s %s", err, want.Error, want.Stderr)
	}
	live := time.Since(start)
	wantFiles := workspaceTree(t, ws.FS())
	ws.Close()

	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, live run %v", seed, live)
	rng := rand.New(rand.NewPCG(seed, 2))
	iterations, replayed := 12, 0
	for i := range iterations {
		delay := time.Duration(rng.Int64N(int64(live)))
		db := filepath.Join(dir, fmt.Sprintf("w%d.db", i))
		ws, err := nook.Open(bg, db)
		if err != nil {
			t.Fatal(err)
		}
		seedTree(t, ws.FS())
		ws.Close()

		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "NOOK_TOOLS_CHILD="+db)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "started\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child: %q %v", line, err)
		}
		time.Sleep(delay)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()

		ws, err = openToolsWS(db, false)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(bg, 30*time.Second)
		h, err := ws.Runtime().GetExec(ctx, "k", runtime.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := h.Result(ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != runtime.StatusCompleted {
			t.Fatalf("iteration %d (kill after %v): %s %s\n%s", i, delay, got.Status, got.Error, got.Stderr)
		}
		if string(got.Stdout) != string(want.Stdout) || string(got.Value) != string(want.Value) {
			t.Fatalf("iteration %d (kill after %v): replay differs\nstdout:\n%s\nwant:\n%s\nvalue %s, want %s",
				i, delay, got.Stdout, want.Stdout, got.Value, want.Value)
		}
		files := workspaceTree(t, ws.FS())
		for p, w := range wantFiles {
			if files[p] != w {
				t.Fatalf("iteration %d (kill after %v): %s is %q, want %q", i, delay, p, files[p], w)
			}
		}
		if len(files) != len(wantFiles) {
			t.Fatalf("iteration %d: %d files, want %d", i, len(files), len(wantFiles))
		}
		ws.Close()
		replayed++
	}
	t.Logf("%d kills, %d runs resumed and matched", iterations, replayed)
}

// A WASI guest reaches ws:tools through the Go guest SDK (nook.Call) like
// JavaScript through an import: the probe guest greps and edits.
func TestModuleFromWASIGuest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a wasip1 guest")
	}
	out := filepath.Join(t.TempDir(), "probe.wasm")
	build := exec.Command("go", "build", "-o", out, "./guest/wasm/probe")
	build.Dir = ".."
	build.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the guest: %v\n%s", err, b)
	}
	guest, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	mod, bind := LateModule(Options{})
	ws, err := nook.Open(context.Background(), filepath.Join(t.TempDir(), "w.db"),
		nook.WithBackends(wasm.New(wasm.Options{})), nook.WithModules(map[string]runtime.Module{ModuleName: mod}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	bind(New(ws.FS(), Options{Runtime: ws.Runtime()}))
	ctx := context.Background()
	mustWrite(t, ws.FS(), "/workspace/a.go", "package a // TODO fix\n")
	call := func(args ...string) string {
		t.Helper()
		h, err := ws.Runtime().Exec(ctx, string(guest), runtime.ExecOptions{Args: append([]string{"call"}, args...)})
		if err != nil {
			t.Fatal(err)
		}
		res, err := h.Result(ctx)
		if err != nil || res.Status != runtime.StatusCompleted {
			t.Fatalf("%v %s %s", err, res.Status, res.Stderr)
		}
		return string(res.Stdout)
	}
	if got := call("ws:tools/grep", `{"query":"TODO","path":"/workspace"}`); !strings.Contains(got, `"path":"/workspace/a.go"`) {
		t.Errorf("grep: %s", got)
	}
	call("ws:tools/edit", `{"path":"/workspace/a.go","edits":[{"oldText":"TODO","newText":"DONE"}]}`)
	b, _ := ws.FS().ReadFile(ctx, "/workspace/a.go")
	if string(b) != "package a // DONE fix\n" {
		t.Errorf("after the edit: %q", b)
	}
	if got := call("ws:tools/read", `{"path":"/workspace/missing"}`); !strings.HasPrefix(got, "error ERR_TOOL: ") {
		t.Errorf("a tool error: %q", got)
	}
}
