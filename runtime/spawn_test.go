package runtime_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
)

// spawnLine is a script line making a KindExec call.
func spawnLine(backend string, args map[string]any) string {
	b, _ := json.Marshal(args)
	return "call exec " + backend + " " + string(b)
}

// readable rewrites the results of KindExec calls in a script's output
// with their streams as text (JSON shows bytes in base64).
func readable(out []byte) string {
	lines := strings.Split(string(out), "\n")
	for i, l := range lines {
		var res map[string]any
		if !strings.HasPrefix(l, `{"code"`) || json.Unmarshal([]byte(l), &res) != nil {
			continue
		}
		for _, k := range []string{"stdout", "stderr"} {
			b, _ := base64.StdEncoding.DecodeString(res[k].(string))
			res[k] = readable(b)
		}
		b, _ := json.Marshal(res)
		lines[i] = string(b)
	}
	return strings.Join(lines, "\n")
}

// runScript runs src on the first backend of ws and returns its result.
func runScript(t *testing.T, ws *nook.Workspace, src string, o runtime.ExecOptions) *runtime.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	h, err := ws.Runtime().Exec(ctx, src, o)
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Truncated {
		if res.Stdout, err = ws.FS().ReadFile(ctx, res.StdoutPath); err != nil {
			t.Fatal(err)
		}
	}
	res.Stdout = []byte(readable(res.Stdout))
	return res
}

// A nested run is a run of its own: the call returns its exit code and
// both its streams, and the journal holds it under the parent's id.
func TestSpawnResult(t *testing.T) {
	ws := openWS(t, "", runtime.Options{})
	src := spawnLine("script", map[string]any{"source": "out hello\nerr oops\nenv GREETING\nexit 3",
		"env": map[string]any{"GREETING": "hi"}}) + "\nout parent done"
	res := runScript(t, ws, src, runtime.ExecOptions{ID: "p"})
	want := `{"code":3,"error":"","id":"p.x1","status":"failed","stderr":"oops\n","stderrBytes":5,` +
		`"stdout":"hello\nhi\n","stdoutBytes":9}` + "\nparent done\n"
	if res.Status != runtime.StatusCompleted || string(res.Stdout) != want {
		t.Fatalf("status %s stdout:\n%s\nwant:\n%s", res.Status, res.Stdout, want)
	}
	h, err := ws.Runtime().GetExec(context.Background(), "p.x1", runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	child, err := h.Result(context.Background())
	if err != nil || child.ExitCode != 3 || string(child.Stdout) != "hello\nhi\n" {
		t.Fatalf("nested run: %+v, %v", child, err)
	}
	runs, err := ws.Runtime().Runs(context.Background(), 0)
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs %+v, %v", runs, err)
	}
	for _, ri := range runs {
		if want := map[string]string{"p": "", "p.x1": "p"}[ri.ID]; ri.Parent != want {
			t.Errorf("run %s: parent %q, want %q", ri.ID, ri.Parent, want)
		}
	}
}

// A program that does not prepare fails as a program, not as a call; a
// backend that is not configured, bad arguments and a missing file are
// call errors with their codes.
func TestSpawnFailures(t *testing.T) {
	ws := openWS(t, "", runtime.Options{})
	ctx := context.Background()
	if err := ws.FS().MkdirAll(ctx, "/workspace/dir", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := ws.FS().WriteFile(ctx, "/workspace/dir/prog", []byte("entry\nout from file"), nil); err != nil {
		t.Fatal(err)
	}
	lines := []string{
		spawnLine("script", map[string]any{"source": "bad line"}),
		spawnLine("python", map[string]any{"source": "print(1)"}),
		spawnLine("script", map[string]any{}),
		spawnLine("script", map[string]any{"source": "out", "args": []any{1}}),
		spawnLine("script", map[string]any{"file": "nope"}),
		spawnLine("script", map[string]any{"file": "/etc/passwd"}),
		spawnLine("script", map[string]any{"file": "prog", "cwd": "/workspace/dir", "args": []any{"a b", "c"}}),
	}
	res := runScript(t, ws, strings.Join(lines, "\n"), runtime.ExecOptions{ID: "p"})
	want := []string{
		`{"code":1,"error":"line 1: unknown command \"bad line\"","id":"","status":"failed","stderr":"line 1: unknown command \"bad line\"\n","stderrBytes":35,"stdout":"","stdoutBytes":0}`,
		`error: exec: no backend "python" is configured in this workspace (configured: "script")`,
		`error: exec: give exactly one of "source" and "file"`,
		`error: exec: "args" must be a list of strings`,
		`error: ENOENT: no such file or directory, open 'nope'`,
		`error: EACCES: permission denied (outside /workspace), open '/etc/passwd'`,
		`{"code":0,"error":"","id":"p.x7","status":"completed","stderr":"","stderrBytes":0,"stdout":"/workspace/dir/prog [\"a b\" \"c\"]\nfrom file\n","stdoutBytes":42}`,
	}
	got := strings.Split(strings.TrimSuffix(string(res.Stdout), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("stdout:\n%s", res.Stdout)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, got[i], want[i])
		}
	}
}

// Runs nest at most MaxExecDepth deep; past it the call fails with EAGAIN
// naming the limit.
func TestSpawnDepth(t *testing.T) {
	ws := openWS(t, "", runtime.Options{Limits: runtime.Limits{MaxExecDepth: 2}})
	inner := spawnLine("script", map[string]any{"source": "out three deep"})
	middle := spawnLine("script", map[string]any{"source": inner})
	res := runScript(t, ws, spawnLine("script", map[string]any{"source": middle}), runtime.ExecOptions{ID: "p"})
	want := `error: exec: a run nested 3 deep exceeds the limit MaxExecDepth (2)`
	if !strings.Contains(string(res.Stdout), want) {
		t.Fatalf("stdout:\n%s\nwant it to hold %s", res.Stdout, want)
	}
}

// The caller gets at most maxBuffer bytes of each stream, and the count of
// all of them.
func TestSpawnMaxBuffer(t *testing.T) {
	ws := openWS(t, "", runtime.Options{Limits: runtime.Limits{MaxStoredOutputBytes: 4096}})
	for _, tc := range []struct {
		max  float64
		want int
	}{{100, 100}, {0, 10000}, {8000, 8000}} {
		args := map[string]any{"source": "flood 10000"}
		if tc.max > 0 {
			args["maxBuffer"] = tc.max
		}
		res := runScript(t, ws, spawnLine("script", args), runtime.ExecOptions{})
		var got struct {
			Stdout      string
			StdoutBytes int
		}
		if err := json.Unmarshal(res.Stdout, &got); err != nil {
			t.Fatalf("%v: %s", err, res.Stdout)
		}
		if len(got.Stdout) != tc.want || got.StdoutBytes != 10000 || strings.Trim(string(got.Stdout), "x") != "" {
			t.Errorf("maxBuffer %v: %d bytes of %d, want %d", tc.max, len(got.Stdout), got.StdoutBytes, tc.want)
		}
	}
}

// A read-only parent starts read-only children, whatever their backend's
// access.
func TestSpawnReadOnly(t *testing.T) {
	ws := openWS(t, "", runtime.Options{Backends: []runtime.Backend{
		&scriptBackend{id: "ro", access: runtime.ReadOnly}, &scriptBackend{id: "rw"}}})
	write := spawnLine("rw", map[string]any{"source": `call fs writeFile {"path":"/workspace/x","data":"hi"}`})
	res := runScript(t, ws, write, runtime.ExecOptions{Backend: "ro"})
	if !strings.Contains(string(res.Stdout), `EROFS`) {
		t.Fatalf("a read-only parent's child wrote: %s", res.Stdout)
	}
	if _, err := ws.FS().Stat(context.Background(), "/workspace/x"); err == nil {
		t.Fatal("the file exists")
	}
	res = runScript(t, ws, write, runtime.ExecOptions{Backend: "rw"})
	if strings.Contains(string(res.Stdout), `EROFS`) {
		t.Fatalf("a read-write parent's child could not write: %s", res.Stdout)
	}
}

// Killing the parent kills the nested run it waits for.
func TestSpawnKillParent(t *testing.T) {
	ws := openWS(t, "", runtime.Options{})
	ctx := context.Background()
	h, err := ws.Runtime().Exec(ctx, spawnLine("script", map[string]any{"source": "out started\nhang"}),
		runtime.ExecOptions{ID: "p"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		ch, err := ws.Runtime().GetExec(ctx, "p.x1", runtime.GetOptions{})
		if err == nil {
			if ev, err := ch.Next(ctx); err == nil && ev.Kind == runtime.EventStdout {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the nested run did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := h.Kill(ctx); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ch, _ := ws.Runtime().GetExec(ctx, "p.x1", runtime.GetOptions{})
	child, err := ch.Result(wctx)
	if err != nil || child.Status != runtime.StatusCancelled {
		t.Fatalf("nested run after its parent was killed: %+v, %v", child, err)
	}
}

// A caller that gives up on the call (child.kill(), the shell's timeout)
// stops the nested run and gets how it ended; the run goes on.
func TestSpawnCallCancelled(t *testing.T) {
	ws := openWS(t, "", runtime.Options{})
	line := spawnLine("script", map[string]any{"source": "out started\nhang"})
	src := "callwithin 300ms " + strings.TrimPrefix(line, "call ") + "\nout the run goes on"
	res := runScript(t, ws, src, runtime.ExecOptions{ID: "p"})
	want := `{"code":130,"error":"Execution cancelled.","id":"p.x1","status":"cancelled","stderr":"Execution cancelled.\n",` +
		`"stderrBytes":21,"stdout":"started\n","stdoutBytes":8}` + "\nthe run goes on\n"
	if res.Status != runtime.StatusCompleted || string(res.Stdout) != want {
		t.Fatalf("status %s stdout:\n%s\nwant:\n%s", res.Status, res.Stdout, want)
	}
}

// A replay-policy run SIGKILLed while its nested run runs resumes in the
// next process: the parent attaches to the same nested run, which resumes
// from its own journal, so each call it journaled happens once.
func TestSpawnReplayAfterCrash(t *testing.T) {
	dir := t.TempDir()
	db, side := filepath.Join(dir, "w.db"), filepath.Join(dir, "side")
	childSrc := "call module ws:side/hit [\"before\"]\ncall module ws:side/hit [\"mark\"]\nsleep 2s\n" +
		"call module ws:side/hit [\"after\"]\nout nested done"
	src := "out parent starts\n" + spawnLine("script", map[string]any{"source": childSrc}) + "\nout parent done"
	child := startChild(t, db, src, "NOOK_RUNTIME_POLICY=replay", "NOOK_RUNTIME_SIDE="+side)
	// Once "mark" ran, "before" is journaled (a call's record is stored
	// before the program goes on); "mark" itself may not be yet, and a
	// host-module call that ran but was not journaled runs again.
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(readHost(t, side), "mark"); {
		if time.Now().After(deadline) {
			t.Fatal("the nested run did not make its first calls")
		}
		time.Sleep(5 * time.Millisecond)
	}
	child.Process.Signal(syscall.SIGKILL) // in the nested run's sleep
	child.Wait()
	if got := readHost(t, side); got != "[before] child.x1/1\n[mark] child.x1/2\n" {
		t.Fatalf("before the crash the host module ran:\n%s", got)
	}
	_, res := resumeChild(t, db, side)
	if res.Status != runtime.StatusCompleted {
		t.Fatalf("status %s stderr %q", res.Status, res.Stderr)
	}
	nested := `{"call":"child.x1/1","hit":["before"]}` + "\n" + `{"call":"child.x1/2","hit":["mark"]}` + "\n" +
		`{"call":"child.x1/3","hit":["after"]}` + "\nnested done\n"
	q, _ := json.Marshal(nested)
	want := "parent starts\n" + `{"code":0,"error":"","id":"child.x1","status":"completed","stderr":"","stderrBytes":0,` +
		`"stdout":` + string(q) + `,"stdoutBytes":` + strconv.Itoa(len(nested)) + "}\nparent done\n"
	if got := readable(res.Stdout); got != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", got, want)
	}
	got := readHost(t, side)
	if got != "[before] child.x1/1\n[mark] child.x1/2\n[after] child.x1/3\n" &&
		got != "[before] child.x1/1\n[mark] child.x1/2\n[mark] child.x1/2\n[after] child.x1/3\n" {
		t.Errorf("the host module ran:\n%s", got)
	}
}
