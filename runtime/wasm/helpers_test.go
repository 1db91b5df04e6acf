package wasm_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/wasm"
	"github.com/nookdev/nook/vfs"
)

var (
	probeOnce sync.Once
	probeBin  []byte
	probeErr  error

	// backend is shared by the tests so that the probe compiles once.
	backend = wasm.New(wasm.Options{})
)

// moduleRoot is the repository root (this package is runtime/wasm).
func moduleRoot(t testing.TB) string {
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// probe returns the guest program guest/wasm/probe built for wasip1.
func probe(t testing.TB) []byte {
	t.Helper()
	probeOnce.Do(func() {
		out := filepath.Join(os.TempDir(), "nook-wasm-probe-"+randName()+".wasm")
		probeBin, probeErr = buildGuest(moduleRoot(t), "./guest/wasm/probe", out)
		os.Remove(out)
	})
	if probeErr != nil {
		t.Fatal(probeErr)
	}
	return probeBin
}

func randName() string {
	f, err := os.CreateTemp("", "n")
	if err != nil {
		return "x"
	}
	f.Close()
	os.Remove(f.Name())
	return filepath.Base(f.Name())
}

// buildGuest builds the Go package pkg (relative to dir) for wasip1.
func buildGuest(dir, pkg, out string) ([]byte, error) {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, &buildError{err: err, out: string(b)}
	}
	return os.ReadFile(out)
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "building a guest: " + e.err.Error() + "\n" + e.out }

// openWS opens a fresh workspace with the wasm backend (and opts) and the
// probe at /workspace/probe.wasm.
func openWS(t testing.TB, opts ...nook.Option) *nook.Workspace {
	t.Helper()
	return openWSB(t, []runtime.Backend{backend}, opts...)
}

// openWSB is openWS with the given backends.
func openWSB(t testing.TB, bs []runtime.Backend, opts ...nook.Option) *nook.Workspace {
	t.Helper()
	ctx := context.Background()
	o := append([]nook.Option{nook.WithBackends(bs...)}, opts...)
	ws, err := nook.Open(ctx, filepath.Join(t.TempDir(), "w.db"), o...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	if err := ws.FS().WriteFile(ctx, "/workspace/probe.wasm", probe(t), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
	return ws
}

// run runs the probe with args and returns the result.
func run(t testing.TB, ws *nook.Workspace, o runtime.ExecOptions, args ...string) *runtime.Result {
	t.Helper()
	return runSource(t, ws, "/workspace/probe.wasm", o, args...)
}

func runSource(t testing.TB, ws *nook.Workspace, src string, o runtime.ExecOptions, args ...string) *runtime.Result {
	t.Helper()
	ctx := context.Background()
	if o.Backend == "" {
		o.Backend = "wasm"
	}
	o.Args = append(o.Args, args...)
	h, err := ws.Runtime().Exec(ctx, src, o)
	if err != nil {
		t.Fatalf("exec: %v", err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatalf("result: %v", err)
	}
	return res
}

// ok fails the test unless res completed.
func ok(t testing.TB, res *runtime.Result) {
	t.Helper()
	if res.Status != runtime.StatusCompleted {
		t.Fatalf("status %s exit %d error %q\nstdout:\n%s\nstderr:\n%s", res.Status, res.ExitCode, res.Error, res.Stdout, res.Stderr)
	}
}
