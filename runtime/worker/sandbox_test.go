package worker_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/worker"
	"github.com/nookdev/nook/vfs"
	"golang.org/x/sys/unix"
)

// probe is a backend whose program tries, from inside its worker, what
// the sandbox must refuse, and prints what happened.
type probe struct{}

func (probe) Info() runtime.BackendInfo {
	return runtime.BackendInfo{ID: "probe", Root: "/workspace"}
}

func (probe) Prepare(ctx context.Context, fsys *vfs.FS, req *runtime.Request) (runtime.Program, error) {
	return probeProgram{req.Source}, nil
}

type probeProgram struct{ what string }

func (p probeProgram) Run(ctx context.Context, host runtime.Host) runtime.Exit {
	if p.what == "calls" {
		for range 1000 {
			if _, err := host.Call(ctx, &runtime.Call{Kind: runtime.KindFS, Op: "stat", Args: map[string]any{"path": "/workspace"}}); err != nil {
				return runtime.Exit{Code: 1, Err: err}
			}
		}
		return runtime.Exit{}
	}
	if p.what == "rlimit" {
		var nofile unix.Rlimit
		unix.Getrlimit(unix.RLIMIT_NOFILE, &nofile)
		host.Write(runtime.Stdout, fmt.Appendf(nil, "nofile: %d\n", nofile.Cur))
		return runtime.Exit{}
	}
	report := func(what string, err error) {
		host.Write(runtime.Stdout, fmt.Appendf(nil, "%s: %v\n", what, errors.Unwrap(err)))
	}
	f, err := os.Open("/etc/hostname")
	if err == nil {
		f.Close()
	}
	report("open", err)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err == nil {
		l.Close()
	}
	report("listen", err)
	report("exec", exec.Command("/bin/true").Run())
	host.Write(runtime.Stdout, fmt.Appendf(nil, "env: %d\n", len(os.Environ())))
	return runtime.Exit{}
}

// TestSandboxRefuses runs the probe in a worker: opening a host file,
// creating a socket and running a program are refused, and the
// environment is empty.
func TestSandboxRefuses(t *testing.T) {
	e := newEnv(t, runtime.Options{Backends: []runtime.Backend{probe{}}}, worker.Options{})
	info, err := e.pool.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("isolation: %s", info)
	if !info.Seccomp {
		t.Skipf("the host does not allow a seccomp filter (%s)", info)
	}
	res := e.run("sandbox", runtime.ExecOptions{Backend: "probe"})
	want := "open: operation not permitted\nlisten: socket: operation not permitted\nexec: operation not permitted\nenv: 0\n"
	if res.Status != runtime.StatusCompleted || string(res.Stdout) != want {
		t.Fatalf("%s stdout=%q stderr=%q", res.Status, res.Stdout, res.Stderr)
	}
	if !strings.Contains(info.String(), "seccomp") {
		t.Fatal(info.String())
	}
	// Landlock is in force whatever the build (with cgo too: the
	// worker starts inside its launcher's domain).
	if abi := worker.KernelLandlockABI(); info.Landlock != abi ||
		(abi > 0 && !strings.Contains(info.String(), fmt.Sprintf("landlock ABI %d", abi))) {
		t.Fatalf("the kernel has Landlock ABI %d: %s", abi, info)
	}
}

// TestOpenFilesLimit: a worker runs with RLIMIT_NOFILE at MaxOpenFiles.
func TestOpenFilesLimit(t *testing.T) {
	e := newEnv(t, runtime.Options{Backends: []runtime.Backend{probe{}}, Limits: runtime.Limits{MaxOpenFiles: 20}},
		worker.Options{})
	res := e.run("rlimit", runtime.ExecOptions{Backend: "probe"})
	if res.Status != runtime.StatusCompleted || string(res.Stdout) != "nofile: 20\n" {
		t.Fatalf("%s stdout=%q stderr=%q", res.Status, res.Stdout, res.Stderr)
	}
}
