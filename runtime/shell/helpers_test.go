package shell_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/vfs"
)

// openWS opens a fresh workspace with the shell backend and seeds files
// (paths relative to /workspace).
func openWS(t testing.TB, files map[string]string, opts ...shell.Options) *nook.Workspace {
	t.Helper()
	ctx := context.Background()
	o := shell.Options{}
	if len(opts) > 0 {
		o = opts[0]
	}
	ws, err := nook.Open(ctx, filepath.Join(t.TempDir(), "w.db"), nook.WithBackends(shell.New(o)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	if err := ws.FS().MkdirAll(ctx, "/workspace", 0o755); err != nil {
		t.Fatal(err)
	}
	for p, data := range files {
		if err := ws.FS().WriteFile(ctx, "/workspace/"+p, []byte(data), &vfs.WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

// run runs script in ws and returns its result.
func run(t testing.TB, ws *nook.Workspace, script string, o ...runtime.ExecOptions) *runtime.Result {
	t.Helper()
	ctx := context.Background()
	opt := runtime.ExecOptions{}
	if len(o) > 0 {
		opt = o[0]
	}
	opt.Backend = "shell"
	h, err := ws.Runtime().Exec(ctx, script, opt)
	if err != nil {
		t.Fatalf("exec: %v", err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatalf("result: %v", err)
	}
	return res
}

type changes struct {
	Changes runtime.Changes
}

// changesOf returns the run's report of changed files.
func changesOf(t testing.TB, r *runtime.Result) changes {
	t.Helper()
	if len(r.Value) > 0 {
		t.Fatalf("a shell run has a value: %s", r.Value)
	}
	if r.Changes == nil {
		t.Fatal("the run reported no changes")
	}
	return changes{Changes: *r.Changes}
}

func execOpts(cwd string) runtime.ExecOptions {
	return runtime.ExecOptions{Cwd: cwd, Env: map[string]string{"LC_ALL": "C", "TZ": "UTC"}}
}

// openWSLimits opens a fresh workspace whose runs have the given limits.
func openWSLimits(t testing.TB, files map[string]string, lim runtime.Limits, o shell.Options) *nook.Workspace {
	t.Helper()
	ctx := context.Background()
	ws, err := nook.Open(ctx, filepath.Join(t.TempDir(), "w.db"), nook.WithBackends(shell.New(o)),
		nook.WithRuntime(runtime.Options{Limits: lim}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	if err := ws.FS().MkdirAll(ctx, "/workspace", 0o755); err != nil {
		t.Fatal(err)
	}
	for p, data := range files {
		if err := ws.FS().WriteFile(ctx, "/workspace/"+p, []byte(data), &vfs.WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}
