package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/vfs"
)

// lineBackend is a backend for testing exec without a language: each line
// of the source is a command.
//
//	out TEXT     print TEXT and a newline to stdout
//	err TEXT     the same on stderr
//	raw TEXT     print TEXT (Go-quoted escapes allowed) without a newline
//	seq N        print "line 01" ... "line N", one per line
//	flood N      print N bytes of 'x' in 1 KiB writes
//	sleep DUR    wait (stops early when the run's context ends)
//	hang         wait until the run's context ends
//	input        print the input
//	env K        print the value of K
//	value JSON   the run's value
//	exit N       end with exit code N
//	fail MSG     end with exit code 1 and the error MSG, printing nothing
//
// A line starting with "bad" is refused by Prepare.
type lineBackend struct {
	id       string
	callable bool
}

func (b *lineBackend) Info() runtime.BackendInfo {
	return runtime.BackendInfo{ID: b.id, Description: "line scripts (" + b.id + ")", Callable: b.callable,
		Root: "/workspace", DefaultTimeout: 10 * time.Second}
}

func (b *lineBackend) Prepare(ctx context.Context, fsys *vfs.FS, req *runtime.Request) (runtime.Program, error) {
	for i, line := range strings.Split(req.Source, "\n") {
		if strings.HasPrefix(line, "bad") {
			return nil, fmt.Errorf("line %d: unknown command %q", i+1, line)
		}
	}
	return &lineProgram{req: req}, nil
}

type lineProgram struct{ req *runtime.Request }

func (p *lineProgram) Run(ctx context.Context, h runtime.Host) runtime.Exit {
	var value json.RawMessage
	for _, line := range strings.Split(p.req.Source, "\n") {
		cmd, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
		var err error
		switch cmd {
		case "out":
			err = h.Write(runtime.Stdout, []byte(arg+"\n"))
		case "err":
			err = h.Write(runtime.Stderr, []byte(arg+"\n"))
		case "raw":
			s, _ := strconv.Unquote(`"` + arg + `"`)
			err = h.Write(runtime.Stdout, []byte(s))
		case "seq":
			n, _ := strconv.Atoi(arg)
			for i := 1; i <= n && err == nil; i++ {
				err = h.Write(runtime.Stdout, fmt.Appendf(nil, "line %02d\n", i))
			}
		case "flood":
			n, _ := strconv.Atoi(arg)
			chunk := []byte(strings.Repeat("x", 1024))
			for n > 0 && err == nil {
				c := chunk[:min(n, len(chunk))]
				err = h.Write(runtime.Stdout, c)
				n -= len(c)
			}
		case "sleep":
			d, _ := time.ParseDuration(arg)
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return runtime.Exit{Code: 1, Err: ctx.Err()}
			}
		case "hang":
			<-ctx.Done()
			return runtime.Exit{Code: 1, Err: ctx.Err()}
		case "input":
			err = h.Write(runtime.Stdout, append(append([]byte{}, p.req.Input...), '\n'))
		case "env":
			err = h.Write(runtime.Stdout, []byte(p.req.Env[arg]+"\n"))
		case "value":
			value = json.RawMessage(arg)
		case "exit":
			n, _ := strconv.Atoi(arg)
			return runtime.Exit{Code: n}
		case "fail":
			return runtime.Exit{Code: 1, Err: errors.New(arg)}
		}
		if err != nil {
			return runtime.Exit{Code: 1, Err: err}
		}
	}
	return runtime.Exit{Value: value}
}

// fixedClock makes run durations 0 ms, so result texts are exact.
func fixedClock() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) }

// newExecSet returns a tool set with exec over a fresh workspace whose
// backends are "sh" (not callable) and "fn" (callable).
func newExecSet(t testing.TB, opts Options, wsOpts ...nook.Option) (*Set, *nook.Workspace) {
	t.Helper()
	wsOpts = append([]nook.Option{nook.WithClock(fixedClock),
		nook.WithBackends(&lineBackend{id: "sh"}, &lineBackend{id: "fn", callable: true})}, wsOpts...)
	ws, err := nook.Open(bg, filepath.Join(t.TempDir(), "ws.db"), wsOpts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	opts.Runtime = ws.Runtime()
	return New(ws.FS(), opts), ws
}

// execArgs builds exec's JSON arguments.
func execArgs(t testing.TB, command string, extra ...any) string {
	t.Helper()
	m := map[string]any{"command": command}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i].(string)] = extra[i+1]
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestExecSuccess(t *testing.T) {
	s, _ := newExecSet(t, Options{})
	r := ok(t, s, "exec", execArgs(t, "out hello\nerr careful\nout bye"))
	want := "exit 0 (completed) in 0 ms\n--- stdout ---\nhello\nbye\n--- stderr ---\ncareful"
	if text(r) != want {
		t.Errorf("text:\n%s\nwant:\n%s", text(r), want)
	}
	m := structured(t, r)
	if m["status"] != "completed" || m["exitCode"] != 0.0 || m["stdout"] != "hello\nbye\n" ||
		m["stderr"] != "careful\n" || m["stdoutBytes"] != 10.0 || m["stderrBytes"] != 8.0 ||
		m["backend"] != "sh" || m["durationMs"] != 0.0 || m["id"] == "" {
		t.Errorf("structured = %v", m)
	}
	for _, k := range []string{"value", "stdoutPath", "stderrPath", "error"} {
		if _, ok := m[k]; ok {
			t.Errorf("structured has %s: %v", k, m)
		}
	}
	// No output at all.
	r = ok(t, s, "exec", execArgs(t, ""))
	equal(t, "empty run", text(r), "exit 0 (completed) in 0 ms\n(no output)")
	// env and cwd reach the program.
	mustWrite(t, s.fs, "/workspace/sub/f", "")
	r = ok(t, s, "exec", execArgs(t, "env GREETING", "env", map[string]string{"GREETING": "hi"}, "cwd", "sub"))
	equal(t, "env", text(r), "exit 0 (completed) in 0 ms\n--- stdout ---\nhi")
}

func equal(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

func TestExecFailure(t *testing.T) {
	s, _ := newExecSet(t, Options{})
	r := call(t, s, "exec", execArgs(t, "out partial\nerr it broke\nexit 3"))
	if !r.IsError {
		t.Fatal("a failed run is not an error result")
	}
	equal(t, "failed run", text(r), "exit 3 (failed) in 0 ms\n--- stdout ---\npartial\n--- stderr ---\nit broke")
	m := structured(t, r)
	if m["status"] != "failed" || m["exitCode"] != 3.0 {
		t.Errorf("structured = %v", m)
	}
	// The run's error, when its stderr does not say it already.
	r = call(t, s, "exec", execArgs(t, "fail the program called process.exit(1)"))
	equal(t, "error line", text(r), "exit 1 (failed) in 0 ms\nerror: the program called process.exit(1)")
	// Errors before the run: the message of the runtime or the backend.
	fails(t, s, "exec", execArgs(t, "out x\nbad thing"), `line 2: unknown command "bad thing"`)
	fails(t, s, "exec", execArgs(t, "out x", "backend", "nope"), `no backend with id "nope"; configured backends: "sh", "fn"`)
	fails(t, s, "exec", execArgs(t, "out x", "cwd", "missing"), "")
	fails(t, s, "exec", execArgs(t, "out x", "timeoutMs", 0), "timeoutMs must be at least 1, got 0")
	fails(t, s, "exec", `{"backend":"sh"}`, "invalid arguments for exec: command is required")
	fails(t, s, "exec", `{"command":null}`, "invalid arguments for exec: command is required (the source to run)")
	fails(t, s, "exec", `{"command":"out x","shell":true}`, `invalid arguments for exec: unknown field "shell"`)
}

func TestExecInput(t *testing.T) {
	s, _ := newExecSet(t, Options{})
	fails(t, s, "exec", execArgs(t, "input", "input", map[string]int{"a": 1}),
		`backend "sh" is not callable; it does not accept structured input`)
	// null is no input, and null optional fields (as OpenAI strict mode
	// sends them) are left out.
	ok(t, s, "exec", `{"command":"out x","input":null}`)
	ok(t, s, "exec", `{"command":"out x","backend":null,"input":null,"cwd":null,"env":null,"timeoutMs":null}`)
	r := ok(t, s, "exec", execArgs(t, "input\nvalue {\"n\": 2}", "backend", "fn", "input", map[string]int{"a": 1}))
	equal(t, "callable run", text(r), "exit 0 (completed) in 0 ms\n--- stdout ---\n{\"a\":1}\nvalue: {\"n\": 2}")
	m := structured(t, r)
	if v, _ := m["value"].(map[string]any); v["n"] != 2.0 {
		t.Errorf("value = %v", m["value"])
	}
	// A value alone is output enough.
	r = ok(t, s, "exec", execArgs(t, "value 42", "backend", "fn"))
	equal(t, "value only", text(r), "exit 0 (completed) in 0 ms\nvalue: 42")
}

func TestExecHeadTail(t *testing.T) {
	s, _ := newExecSet(t, Options{Exec: ExecOptions{MaxOutputBytes: 64}})
	r := ok(t, s, "exec", execArgs(t, "seq 20\nerr short"))
	id := structured(t, r)["id"].(string)
	path := runtime.DefaultOutputDir + "/" + id + "/stdout"
	want := "exit 0 (completed) in 0 ms\n--- stdout ---\n" +
		"line 01\nline 02\nline 03\nline 04\n" +
		"[... 96 bytes omitted; full output: " + path + " ...]\n" +
		"line 17\nline 18\nline 19\nline 20\n" +
		"--- stderr ---\nshort"
	equal(t, "head and tail", text(r), want)
	m := structured(t, r)
	if m["stdoutPath"] != path || m["stdoutBytes"] != 160.0 || m["stderrPath"] != nil {
		t.Errorf("structured = %v", m)
	}
	// The full output is in the workspace, and the read tool opens it.
	full := contentOf(t, s.fs, path)
	if !strings.HasPrefix(full, "line 01\n") || !strings.HasSuffix(full, "line 20\n") || len(full) != 160 {
		t.Errorf("full output file = %q", full)
	}
	rr := ok(t, s, "read", `{"path":"`+path+`","offset":10,"limit":1}`)
	if !strings.Contains(text(rr), "line 10") {
		t.Errorf("read of the full output = %q", text(rr))
	}
	// Disposing of the run deletes the file the tool wrote.
	if err := s.opts.Runtime.DisposeExec(bg, id); err != nil {
		t.Fatal(err)
	}
	if _, err := s.fs.Stat(bg, path); vfs.Code(err) != vfs.ENOENT {
		t.Errorf("after dispose, stat %s: %v", path, err)
	}

	// Multi-byte characters are never cut, and a line without a newline
	// gets one before the marker.
	r = ok(t, s, "exec", execArgs(t, "raw "+strings.Repeat("€", 100)))
	id = structured(t, r)["id"].(string)
	want = "exit 0 (completed) in 0 ms\n--- stdout ---\n" + strings.Repeat("€", 10) +
		"\n[... 240 bytes omitted; full output: " + runtime.DefaultOutputDir + "/" + id + "/stdout ...]\n" +
		strings.Repeat("€", 10)
	equal(t, "utf-8 cut", text(r), want)
}

func TestCutMiddle(t *testing.T) {
	for _, tt := range []struct {
		data string
		half int
		want string
	}{
		// Cut at a line end within a quarter of the kept part.
		{"aaaaaaa\nbb|cccccccc|d\neeeeeeee", 10, "aaaaaaa\n[... 14 bytes omitted; full output: P ...]\neeeeeeee"},
		// No line end near: cut mid-line.
		{strings.Repeat("x", 50), 10, "xxxxxxxxxx\n[... 30 bytes omitted; full output: P ...]\nxxxxxxxxxx"},
		// 2-byte characters at odd offsets.
		{"a" + strings.Repeat("é", 30), 10, "aéééé\n[... 42 bytes omitted; full output: P ...]\nééééé"},
	} {
		d := []byte(tt.data)
		shown, _, _ := cutMiddle(d, d, int64(len(d)), tt.half, "P", "")
		if shown != tt.want {
			t.Errorf("cutMiddle(%q, %d) =\n%q\nwant\n%q", tt.data, tt.half, shown, tt.want)
		}
	}
}

func TestExecRuntimeSpill(t *testing.T) {
	// The runtime keeps 1 KiB of output in its record and saves the rest;
	// the tool reads the tail from the runtime's file.
	s, _ := newExecSet(t, Options{Exec: ExecOptions{MaxOutputBytes: 64}},
		nook.WithRuntime(runtime.Options{Limits: runtime.Limits{MaxStoredOutputBytes: 1024}}))
	r := ok(t, s, "exec", execArgs(t, "seq 200\nerr done"))
	m := structured(t, r)
	id := m["id"].(string)
	dir := runtime.DefaultOutputDir + "/" + id
	want := "exit 0 (completed) in 0 ms\n--- stdout ---\n" +
		"line 01\nline 02\nline 03\nline 04\n" +
		"[... 1642 bytes omitted; full output: " + dir + "/stdout ...]\n" +
		"line 198\nline 199\nline 200\n" +
		"--- stderr ---\ndone"
	equal(t, "spilled run", text(r), want)
	if m["stdoutPath"] != dir+"/stdout" || m["stderrPath"] != dir+"/stderr" || m["stdoutBytes"] != 1701.0 {
		t.Errorf("structured = %v", m)
	}
}

func TestExecTimeout(t *testing.T) {
	s, _ := newExecSet(t, Options{})
	r := call(t, s, "exec", execArgs(t, "out started\nhang", "timeoutMs", 50))
	if !r.IsError {
		t.Error("a timed-out run is not an error result")
	}
	equal(t, "timed out", text(r), "timed out after 0 ms (exit 124)\n--- stdout ---\nstarted\n--- stderr ---\n"+
		"Execution timed out after 50ms (limit Timeout).")
	m := structured(t, r)
	if m["status"] != "timed_out" || m["exitCode"] != 124.0 || m["error"] != "Execution timed out after 50ms (limit Timeout)." {
		t.Errorf("structured = %v", m)
	}
}

func TestExecCancel(t *testing.T) {
	for _, withProgress := range []bool{false, true} {
		t.Run(fmt.Sprintf("progress=%v", withProgress), func(t *testing.T) {
			s, ws := newExecSet(t, Options{})
			ctx, cancel := context.WithCancel(bg)
			if withProgress {
				ctx = WithProgress(ctx, func(Progress) {})
			}
			errc := make(chan error, 1)
			go func() {
				_, err := s.Call(ctx, "exec", json.RawMessage(execArgs(t, "out waiting\nhang")))
				errc <- err
			}()
			id := waitRunning(t, ws.Runtime())
			cancel()
			if err := <-errc; !errors.Is(err, context.Canceled) {
				t.Fatalf("Call after cancel: %v", err)
			}
			// The run is over by the time Call returns.
			runs, err := ws.Runtime().Runs(bg, 0)
			if err != nil || len(runs) != 1 || runs[0].ID != id || runs[0].Status != runtime.StatusCancelled ||
				runs[0].ExitCode != 130 {
				t.Errorf("runs after cancel = %+v, %v", runs, err)
			}
		})
	}
}

// waitRunning waits for the only run of rt to be running and returns its id.
func waitRunning(t *testing.T, rt *runtime.Runtime) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		runs, err := rt.Runs(bg, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) == 1 && runs[0].Status == runtime.StatusRunning && runs[0].StdoutBytes > 0 {
			return runs[0].ID
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the run did not start")
	return ""
}

func TestExecProgress(t *testing.T) {
	s, _ := newExecSet(t, Options{Exec: ExecOptions{ProgressInterval: 20 * time.Millisecond}})
	var mu sync.Mutex
	var got []Progress
	ctx := WithProgress(bg, func(p Progress) {
		mu.Lock()
		got = append(got, p)
		mu.Unlock()
	})
	r, err := s.Call(ctx, "exec", json.RawMessage(execArgs(t, "out first\nsleep 200ms\nerr second\nsleep 200ms")))
	if err != nil || r.IsError {
		t.Fatalf("exec: %v %s", err, text(r))
	}
	mu.Lock()
	defer mu.Unlock()
	var msgs []string
	for i, p := range got {
		msgs = append(msgs, p.Message)
		if i > 0 && p.Current <= got[i-1].Current {
			t.Errorf("progress %d: Current %v after %v", i, p.Current, got[i-1].Current)
		}
	}
	for _, want := range []string{
		"running: 6 B stdout, 0 B stderr, last line: first",
		"running: 6 B stdout, 7 B stderr, last line: second",
	} {
		if !slices.Contains(msgs, want) {
			t.Errorf("progress %q missing from %q", want, msgs)
		}
	}
	// Reports come only when something changed (or a heartbeat is due):
	// two changes in 400 ms.
	if len(got) > 4 {
		t.Errorf("%d progress reports, want at most 4: %q", len(got), msgs)
	}
}

func TestExecDescriptionAndSchemas(t *testing.T) {
	s, _ := newExecSet(t, Options{})
	tl := s.Tool("exec")
	if tl == nil {
		t.Fatal("no exec tool")
	}
	want := `Run code in a sandbox over the workspace files and get its exit status and output. Backends:
- "sh": line scripts (sh)
- "fn" (callable): line scripts (fn)
Default backend: "sh".
Code sees the workspace files under /workspace; cwd is relative to it. Use exec to compute, to test code, or to change many files at once; use read, ls, find, grep, write and edit for plain file work.
On a callable backend, command is a module: input is passed to its default export, and what that returns comes back as value.
Long output shows its head and tail; the whole output is saved to a workspace file, named in the result, that the read tool can open.`
	equal(t, "description", tl.Description, want)
	if tl.Annotations.ReadOnly || !tl.Annotations.Destructive {
		t.Errorf("annotations = %+v", tl.Annotations)
	}
	var in struct {
		Required   []string
		Properties map[string]struct {
			Enum []string
		}
	}
	if err := json.Unmarshal(tl.InputSchema, &in); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(in.Required, []string{"command"}) || !slices.Equal(in.Properties["backend"].Enum, []string{"sh", "fn"}) {
		t.Errorf("input schema = %s", tl.InputSchema)
	}
	// Both schemas are valid JSON Schema, and results match the output
	// schema, failed runs included.
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
	for _, src := range []string{"out x", "exit 2", "flood 100000"} {
		r := call(t, s, "exec", execArgs(t, src))
		if err := rs.Validate(structured(t, r)); err != nil {
			t.Errorf("%q: structured result does not match the output schema: %v", src, err)
		}
	}
	r := call(t, s, "exec", execArgs(t, "value [1]", "backend", "fn"))
	if err := rs.Validate(structured(t, r)); err != nil {
		t.Errorf("value: structured result does not match the output schema: %v", err)
	}
}

func TestExecComposition(t *testing.T) {
	// No runtime, or a runtime without backends: no exec tool.
	s, _ := newSet(t, Options{})
	if s.Tool("exec") != nil {
		t.Error("exec without a runtime")
	}
	ws, err := nook.OpenMemory(bg)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if New(ws.FS(), Options{Runtime: ws.Runtime()}).Tool("exec") != nil {
		t.Error("exec without backends")
	}
	// A read-only set leaves exec out.
	ro, _ := newExecSet(t, Options{ReadOnly: true})
	if ro.Tool("exec") != nil {
		t.Error("exec in a read-only set")
	}
	rw, _ := newExecSet(t, Options{})
	names := []string{}
	for _, tl := range rw.Tools() {
		names = append(names, tl.Name)
	}
	if names[len(names)-1] != "exec" {
		t.Errorf("tools = %v", names)
	}
}

func TestExecJavaScript(t *testing.T) {
	ws, err := nook.OpenMemory(bg, nook.WithClock(fixedClock), nook.WithBackends(js.New(js.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	s := New(ws.FS(), Options{Runtime: ws.Runtime()})
	mustWrite(t, s.fs, "/workspace/n.txt", "41")
	r := ok(t, s, "exec", execArgs(t, `import { readFile } from "node:fs/promises";
export default async ({ file }) => {
  const n = Number(await readFile(file, "utf8"));
  console.log("read", n);
  return { answer: n + 1 };
};`, "input", map[string]string{"file": "n.txt"}))
	equal(t, "js run", text(r), "exit 0 (completed) in 0 ms\n--- stdout ---\nread 41\nvalue: {\"answer\":42}")
	r = call(t, s, "exec", execArgs(t, `throw new Error("boom")`))
	if !r.IsError || !strings.HasPrefix(text(r), "exit 1 (failed) in 0 ms\n--- stderr ---\n") || !strings.Contains(text(r), "boom") {
		t.Errorf("js throw: %q", text(r))
	}
	fails(t, s, "exec", execArgs(t, `export default (`), "")
}

func TestExecShellChanges(t *testing.T) {
	ws, err := nook.OpenMemory(bg, nook.WithClock(fixedClock), nook.WithBackends(shell.New(shell.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	s := New(ws.FS(), Options{Runtime: ws.Runtime()})
	mustWrite(t, s.fs, "/workspace/old.txt", "x\n")
	r := call(t, s, "exec", execArgs(t, `mkdir -p out && echo hi > out/a.txt && rm old.txt && echo done && exit 2`))
	equal(t, "shell run", text(r), "exit 2 (failed) in 0 ms\n--- stdout ---\ndone\n"+
		"created: /workspace/out/a.txt\ndeleted: /workspace/old.txt\ndirs created: /workspace/out")
	m := structured(t, r)
	ch, _ := m["changes"].(map[string]any)
	if fmt.Sprint(ch["created"]) != "[/workspace/out/a.txt]" {
		t.Errorf("structured changes %v", m["changes"])
	}
}

// BenchmarkExec compares a call of the exec tool with a direct
// Runtime.Exec and Result of the same one-line program.
func BenchmarkExec(b *testing.B) {
	s, ws := newExecSet(b, Options{})
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			h, err := ws.Runtime().Exec(bg, "out hello", runtime.ExecOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := h.Result(bg); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, progress := range []bool{false, true} {
		b.Run(fmt.Sprintf("tool/progress=%v", progress), func(b *testing.B) {
			ctx := bg
			if progress {
				ctx = WithProgress(ctx, func(Progress) {})
			}
			args := json.RawMessage(`{"command":"out hello"}`)
			for b.Loop() {
				r, err := s.Call(ctx, "exec", args)
				if err != nil || r.IsError {
					b.Fatal(err, text(r))
				}
			}
		})
	}
}

func TestExecDefaultBackend(t *testing.T) {
	s, _ := newExecSet(t, Options{Exec: ExecOptions{DefaultBackend: "fn"}})
	desc := s.Tool("exec").Description
	if !strings.Contains(desc, "Backends:\n- \"fn\" (callable): line scripts (fn)\n- \"sh\": line scripts (sh)\nDefault backend: \"fn\".") {
		t.Errorf("description:\n%s", desc)
	}
	r := ok(t, s, "exec", execArgs(t, "out x"))
	if m := structured(t, r); m["backend"] != "fn" {
		t.Errorf("ran on %v", m["backend"])
	}
	r = ok(t, s, "exec", execArgs(t, "out x", "backend", "sh"))
	if m := structured(t, r); m["backend"] != "sh" {
		t.Errorf("ran on %v", m["backend"])
	}
}
