package runtime_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

func openWS(t *testing.T, path string, o runtime.Options) *nook.Workspace {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "w.db")
	}
	if o.Backends == nil {
		o.Backends = []runtime.Backend{&scriptBackend{callable: true}}
	}
	ws, err := nook.Open(context.Background(), path, nook.WithRuntime(o))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

func run(t *testing.T, rt *runtime.Runtime, src string, o runtime.ExecOptions) *runtime.Result {
	t.Helper()
	ctx := context.Background()
	h, err := rt.Exec(ctx, src, o)
	if err != nil {
		t.Fatalf("Exec: %v", err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatalf("Result: %v", err)
	}
	return res
}

func code(err error) vfs.Errno {
	var re *runtime.Error
	if errors.As(err, &re) {
		return re.Code
	}
	return ""
}

func TestExecResult(t *testing.T) {
	ws := openWS(t, "", runtime.Options{})
	res := run(t, ws.Runtime(), "out hello\nerr oops\ninput\nenv K\nvalue {\"n\":1}",
		runtime.ExecOptions{Input: map[string]any{"q": "hi"}, Env: map[string]string{"K": "v"}})
	if res.Status != runtime.StatusCompleted || res.ExitCode != 0 {
		t.Fatalf("status %s code %d", res.Status, res.ExitCode)
	}
	if got, want := string(res.Stdout), "hello\n{\"q\":\"hi\"}\nv\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	if string(res.Stderr) != "oops\n" {
		t.Errorf("stderr %q", res.Stderr)
	}
	if string(res.Value) != `{"n":1}` {
		t.Errorf("value %s", res.Value)
	}
	if res.StdoutBytes != int64(len(res.Stdout)) || res.Truncated {
		t.Errorf("counters %d truncated %v", res.StdoutBytes, res.Truncated)
	}
}

func TestExecFailedExitCode(t *testing.T) {
	ws := openWS(t, "", runtime.Options{})
	res := run(t, ws.Runtime(), "out a\nvalue 1\nexit 3", runtime.ExecOptions{})
	if res.Status != runtime.StatusFailed || res.ExitCode != 3 || res.Value != nil {
		t.Fatalf("got %s %d %s", res.Status, res.ExitCode, res.Value)
	}
}

func TestExecValidation(t *testing.T) {
	ws := openWS(t, "", runtime.Options{Backends: []runtime.Backend{
		&scriptBackend{id: "a", callable: true}, &scriptBackend{id: "sh"}}})
	rt := ws.Runtime()
	ctx := context.Background()
	cases := []struct {
		o    runtime.ExecOptions
		src  string
		code vfs.Errno
		msg  string
	}{
		{runtime.ExecOptions{Backend: "nope"}, "", vfs.EINVAL, `no backend with id "nope"; configured backends: "a", "sh"`},
		{runtime.ExecOptions{Backend: "sh", Input: 1}, "", vfs.EINVAL, `backend "sh" is not callable; it does not accept structured input`},
		{runtime.ExecOptions{ID: "a/b"}, "", vfs.EINVAL, `run id "a/b" may hold only letters, digits, '.', '_', '-' and ':'`},
		{runtime.ExecOptions{Cwd: "/etc"}, "", runtime.EACCES, `cwd must be inside the backend's root /workspace: /etc`},
		{runtime.ExecOptions{Cwd: "missing"}, "", vfs.ENOENT, ""},
		{runtime.ExecOptions{Encoding: "latin1"}, "", vfs.EINVAL, `encoding "latin1": use "utf8" or "binary"`},
		{runtime.ExecOptions{}, "bad stuff", vfs.EINVAL, `line 1: unknown command "bad stuff"`},
		{runtime.ExecOptions{Input: func() {}}, "", vfs.EINVAL, ""},
	}
	for _, c := range cases {
		_, err := rt.Exec(ctx, c.src, c.o)
		if code(err) != c.code || (c.msg != "" && err.Error() != c.msg) {
			t.Errorf("%+v: got %v (%s), want %s %q", c.o, err, code(err), c.code, c.msg)
		}
	}
	runs, _ := rt.Runs(ctx, 0)
	if len(runs) != 0 {
		t.Errorf("failed Execs left %d records", len(runs))
	}
}

func TestExecLimitsOnRequest(t *testing.T) {
	ws := openWS(t, "", runtime.Options{Limits: runtime.Limits{MaxInputBytes: 10, MaxEnvBytes: 4, MaxStdinBytes: 2}})
	rt := ws.Runtime()
	ctx := context.Background()
	for _, c := range []struct {
		o     runtime.ExecOptions
		limit string
	}{
		{runtime.ExecOptions{Input: strings.Repeat("x", 20)}, "MaxInputBytes"},
		{runtime.ExecOptions{Env: map[string]string{"KEY": "value"}}, "MaxEnvBytes"},
		{runtime.ExecOptions{Stdin: []byte("abc")}, "MaxStdinBytes"},
	} {
		_, err := rt.Exec(ctx, "", c.o)
		var le *runtime.LimitError
		if !errors.As(err, &le) || le.Limit != c.limit || !strings.Contains(err.Error(), c.limit) {
			t.Errorf("%s: got %v", c.limit, err)
		}
	}
}

func TestKillAndTimeout(t *testing.T) {
	ws := openWS(t, "", runtime.Options{})
	rt := ws.Runtime()
	ctx := context.Background()
	h, err := rt.Exec(ctx, "out started\nhang", runtime.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := h.Next(ctx)
	if err != nil || string(e.Data) != "started\n" || e.Seq != 1 {
		t.Fatalf("first event %+v %v", e, err)
	}
	if err := rt.KillExec(ctx, h.ID); err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusCancelled || res.ExitCode != 130 || string(res.Stderr) != "Execution cancelled.\n" {
		t.Errorf("kill: %s %d %q", res.Status, res.ExitCode, res.Stderr)
	}
	if err := rt.KillExec(ctx, h.ID); err != nil {
		t.Errorf("killing a finished run: %v", err)
	}
	if err := rt.KillExec(ctx, "nope"); code(err) != vfs.ENOENT || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("kill unknown: %v", err)
	}

	start := time.Now()
	res = run(t, rt, "out x\nhang", runtime.ExecOptions{Timeout: 100 * time.Millisecond})
	if res.Status != runtime.StatusTimedOut || res.ExitCode != 124 {
		t.Errorf("timeout: %s %d", res.Status, res.ExitCode)
	}
	if got := string(res.Stderr); got != "Execution timed out after 100ms (limit Timeout).\n" {
		t.Errorf("timeout stderr %q", got)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("timeout took %v", d)
	}
}

func TestTimeoutClamped(t *testing.T) {
	ws := openWS(t, "", runtime.Options{Backends: []runtime.Backend{&scriptBackend{maxT: 50 * time.Millisecond}}})
	res := run(t, ws.Runtime(), "hang", runtime.ExecOptions{Timeout: time.Hour})
	if res.Status != runtime.StatusTimedOut || !strings.Contains(string(res.Stderr), "after 50ms") {
		t.Errorf("%s %q", res.Status, res.Stderr)
	}
}

func TestEventsReattach(t *testing.T) {
	ws := openWS(t, "", runtime.Options{})
	rt := ws.Runtime()
	ctx := context.Background()
	res := run(t, rt, "out one\nsleep 20ms\nerr two\nsleep 20ms\nout three\nvalue 7", runtime.ExecOptions{ID: "r1"})
	if res.Status != runtime.StatusCompleted {
		t.Fatal(res.Status)
	}
	all := events(t, rt, "r1", 0)
	var kinds []string
	for i, e := range all {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
		kinds = append(kinds, e.Kind.String()+":"+string(e.Data))
	}
	want := "stdout:one\n|stderr:two\n|stdout:three\n|exit:"
	if got := strings.Join(kinds, "|"); got != want {
		t.Fatalf("events %q, want %q", got, want)
	}
	last := all[len(all)-1]
	if last.Status != runtime.StatusCompleted || string(last.Value) != "7" {
		t.Errorf("exit event %+v", last)
	}
	tail := events(t, rt, "r1", 2)
	if len(tail) != 2 || tail[0].Seq != 3 {
		t.Errorf("from cursor 2: %+v", tail)
	}
	if _, err := rt.GetExec(ctx, "nope", runtime.GetOptions{}); code(err) != vfs.ENOENT {
		t.Errorf("GetExec unknown: %v", err)
	}
}

func events(t *testing.T, rt *runtime.Runtime, id string, after int64) []runtime.Event {
	t.Helper()
	ctx := context.Background()
	h, err := rt.GetExec(ctx, id, runtime.GetOptions{After: after})
	if err != nil {
		t.Fatal(err)
	}
	var out []runtime.Event
	for {
		e, err := h.Next(ctx)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
}

func TestUTF8EventsNotSplit(t *testing.T) {
	ws := openWS(t, "", runtime.Options{Limits: runtime.Limits{MaxStoredOutputBytes: 1 << 20}})
	// "é" is \xc3\xa9: written in two halves, with a pause between.
	res := run(t, ws.Runtime(), `raw a\xc3
sleep 20ms
raw \xa9b`, runtime.ExecOptions{ID: "u"})
	if string(res.Stdout) != "aéb" {
		t.Fatalf("stdout %q", res.Stdout)
	}
	for _, e := range events(t, ws.Runtime(), "u", 0) {
		if e.Kind == runtime.EventStdout && !utf8Valid(e.Data) {
			t.Errorf("event %d splits a character: %q", e.Seq, e.Data)
		}
	}
}

func utf8Valid(b []byte) bool { return strings.ToValidUTF8(string(b), "?") == string(b) }

func TestOutputSpill(t *testing.T) {
	ws := openWS(t, "", runtime.Options{Limits: runtime.Limits{MaxStoredOutputBytes: 3000}})
	ctx := context.Background()
	res := run(t, ws.Runtime(), "err before\nflood 10000\nerr after", runtime.ExecOptions{ID: "big"})
	if res.Status != runtime.StatusCompleted || !res.Truncated {
		t.Fatalf("status %s truncated %v", res.Status, res.Truncated)
	}
	if res.StdoutBytes != 10000 || int64(len(res.Stdout)+len(res.Stderr)) != 3000 {
		t.Errorf("stored %d+%d of %d", len(res.Stdout), len(res.Stderr), res.StdoutBytes)
	}
	if res.StdoutPath != "/.nook/runs/big/stdout" || res.StderrPath != "/.nook/runs/big/stderr" {
		t.Errorf("paths %q %q", res.StdoutPath, res.StderrPath)
	}
	full, err := ws.FS().ReadFile(ctx, res.StdoutPath)
	if err != nil || !bytes.Equal(full, bytes.Repeat([]byte("x"), 10000)) {
		t.Errorf("stdout file: %d bytes, %v", len(full), err)
	}
	errs, _ := ws.FS().ReadFile(ctx, res.StderrPath)
	if string(errs) != "before\nafter\n" {
		t.Errorf("stderr file %q", errs)
	}
	if err := ws.Runtime().DisposeExec(ctx, "big"); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.FS().Stat(ctx, "/.nook/runs/big"); code(err) != "" || vfs.Code(err) != vfs.ENOENT {
		t.Errorf("output dir after dispose: %v", err)
	}
}

func TestOutputLimit(t *testing.T) {
	ws := openWS(t, "", runtime.Options{Limits: runtime.Limits{MaxOutputBytes: 5000}})
	res := run(t, ws.Runtime(), "flood 100000\nout unreachable", runtime.ExecOptions{})
	if res.Status != runtime.StatusFailed || res.ExitCode != 1 {
		t.Fatalf("%s %d", res.Status, res.ExitCode)
	}
	if want := "output of 5120 bytes exceeds the limit MaxOutputBytes (5000)"; res.Error != want {
		t.Errorf("error %q, want %q", res.Error, want)
	}
	if res.StdoutBytes > 5000 {
		t.Errorf("accepted %d bytes", res.StdoutBytes)
	}
}

func TestDisposeAndReuse(t *testing.T) {
	ws := openWS(t, "", runtime.Options{})
	rt := ws.Runtime()
	ctx := context.Background()
	h, err := rt.Exec(ctx, "hang", runtime.ExecOptions{ID: "job"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Exec(ctx, "out x", runtime.ExecOptions{ID: "job"}); code(err) != runtime.EBUSY {
		t.Errorf("reuse while running: %v", err)
	}
	if err := rt.DisposeExec(ctx, "job"); code(err) != runtime.EBUSY || err.Error() != "run job is still running" {
		t.Errorf("dispose running: %v", err)
	}
	h.Kill(ctx)
	h.Wait(ctx)
	if _, err := rt.Exec(ctx, "out x", runtime.ExecOptions{ID: "job"}); code(err) != vfs.EEXIST {
		t.Errorf("reuse finished: %v", err)
	}
	if err := rt.DisposeExec(ctx, "job"); err != nil {
		t.Fatal(err)
	}
	if err := rt.DisposeExec(ctx, "job"); code(err) != vfs.ENOENT {
		t.Errorf("dispose twice: %v", err)
	}
	res := run(t, rt, "out again", runtime.ExecOptions{ID: "job"})
	if string(res.Stdout) != "again\n" {
		t.Errorf("after reuse: %q", res.Stdout)
	}
}

func TestConcurrencyCap(t *testing.T) {
	ws := openWS(t, "", runtime.Options{MaxConcurrent: 2})
	rt := ws.Runtime()
	ctx := context.Background()
	var hs []*runtime.Handle
	for range 2 {
		h, err := rt.Exec(ctx, "hang", runtime.ExecOptions{})
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	_, err := rt.Exec(ctx, "out x", runtime.ExecOptions{})
	if code(err) != runtime.EBUSY || err.Error() != "2 runs are already running (limit MaxConcurrent)" {
		t.Errorf("third run: %v", err)
	}
	for _, h := range hs {
		h.Kill(ctx)
		h.Wait(ctx)
	}
	if _, err := rt.Exec(ctx, "out x", runtime.ExecOptions{}); err != nil {
		t.Errorf("after kills: %v", err)
	}
}

func TestRetention(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	clock := func() time.Time { return now }
	ws := openWS(t, "", runtime.Options{MaxRetained: 3, Now: clock})
	rt := ws.Runtime()
	ctx := context.Background()
	for i := range 5 {
		now = now.Add(2 * time.Second)
		run(t, rt, "out x", runtime.ExecOptions{ID: "r" + string(rune('0'+i))})
	}
	now = now.Add(2 * time.Second)
	run(t, rt, "out x", runtime.ExecOptions{ID: "last"})
	runs, err := rt.Runs(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range runs {
		ids = append(ids, r.ID)
	}
	if got := strings.Join(ids, ","); got != "last,r4,r3" {
		t.Errorf("retained %s", got)
	}
	now = now.Add(2 * time.Hour)
	run(t, rt, "out x", runtime.ExecOptions{ID: "later"})
	runs, _ = rt.Runs(ctx, 0)
	if len(runs) != 1 || runs[0].ID != "later" {
		t.Errorf("after retention: %+v", runs)
	}
}

func TestCloseCancelsRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	ws := openWS(t, path, runtime.Options{})
	ctx := context.Background()
	if _, err := ws.Runtime().Exec(ctx, "out a\nhang", runtime.ExecOptions{ID: "c"}); err != nil {
		t.Fatal(err)
	}
	if err := ws.Close(); err != nil {
		t.Fatal(err)
	}
	ws2 := openWS(t, path, runtime.Options{})
	h, err := ws2.Runtime().GetExec(ctx, "c", runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusCancelled || !strings.HasSuffix(string(res.Stderr), "Execution cancelled because its workspace closed.\n") {
		t.Errorf("%s %q", res.Status, res.Stderr)
	}
}

func TestTwoProcessesShareRuns(t *testing.T) {
	// Two workspaces on one file stand for two processes: each has its
	// own runtime and lease.
	path := filepath.Join(t.TempDir(), "w.db")
	a := openWS(t, path, runtime.Options{})
	b := openWS(t, path, runtime.Options{})
	ctx := context.Background()
	if _, err := a.Runtime().Exec(ctx, "out one\nsleep 50ms\nout two\nhang", runtime.ExecOptions{ID: "shared"}); err != nil {
		t.Fatal(err)
	}
	h, err := b.Runtime().GetExec(ctx, "shared", runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"one\n", "two\n"} {
		e, err := h.Next(ctx)
		if err != nil || string(e.Data) != want {
			t.Fatalf("event %+v %v, want %q", e, err, want)
		}
	}
	if err := b.Runtime().KillExec(ctx, "shared"); err != nil {
		t.Fatal(err)
	}
	e, err := h.Next(ctx)
	if err != nil || string(e.Data) != "Execution cancelled.\n" {
		t.Fatalf("after kill: %+v %v", e, err)
	}
	e, _ = h.Next(ctx)
	if e.Kind != runtime.EventExit || e.Status != runtime.StatusCancelled || e.ExitCode != 130 {
		t.Errorf("exit %+v", e)
	}
	if _, err := h.Next(ctx); err != io.EOF {
		t.Errorf("after exit: %v", err)
	}
}

func TestHostModulesAndDeniedFetch(t *testing.T) {
	mods := map[string]runtime.Module{"ws:orders": {
		"lookup": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			if len(args) != 1 {
				return nil, errors.New("lookup takes one order id")
			}
			return map[string]any{"id": args[0], "run": c.RunID, "call": c.CallID}, nil
		},
		"boom": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) { panic("kaput") },
	}}
	ws := openWS(t, "", runtime.Options{Modules: mods})
	res := run(t, ws.Runtime(), `call module ws:orders/lookup ["A1"]
call module ws:orders/lookup []
call module ws:orders/boom []
call module ws:orders/none []
call fetch fetch {"url":"https://example.com"}`, runtime.ExecOptions{ID: "m"})
	want := `{"call":"m/1","id":"A1","run":"m"}
error: lookup takes one order id
error: host function panicked: kaput
error: host module "ws:orders" has no function "none"
error: fetch is not available: the workspace has no outbound network policy
`
	if string(res.Stdout) != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", res.Stdout, want)
	}
}

func TestBadModuleName(t *testing.T) {
	_, err := nook.OpenMemory(context.Background(), nook.WithModules(map[string]runtime.Module{"orders": {}}))
	if err == nil || !strings.Contains(err.Error(), `host module name "orders" must match`) {
		t.Errorf("got %v", err)
	}
}
