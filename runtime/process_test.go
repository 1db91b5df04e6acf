package runtime_test

import (
	"context"
	"fmt"
	"github.com/nookdev/nook/internal/childproc"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
)

// TestMain lets the test binary act as a second process: with
// NOOK_RUNTIME_CHILD set it opens the workspace at NOOK_RUNTIME_DB, starts a
// run of NOOK_RUNTIME_SRC with id "child", prints "started" and waits for
// the run to end.
func TestMain(m *testing.M) {
	if os.Getenv("NOOK_RUNTIME_CHILD") != "" {
		ctx := context.Background()
		ws, err := nook.Open(ctx, os.Getenv("NOOK_RUNTIME_DB"), nook.WithBackends(&scriptBackend{}),
			nook.WithModules(sideModule(os.Getenv("NOOK_RUNTIME_SIDE"))))
		if err != nil {
			panic(err)
		}
		h, err := ws.Runtime().Exec(ctx, os.Getenv("NOOK_RUNTIME_SRC"), runtime.ExecOptions{ID: "child",
			OnInterrupt: runtime.Policy(os.Getenv("NOOK_RUNTIME_POLICY"))})
		if err != nil {
			panic(err)
		}
		childproc.Ready()
		h.Wait(ctx)
		ws.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// sideModule is ws:side, whose hit function appends a line to the host
// file side: the test counts how often it really ran.
func sideModule(side string) map[string]runtime.Module {
	return map[string]runtime.Module{"ws:side": {
		"hit": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			f, err := os.OpenFile(side, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			fmt.Fprintf(f, "%v %s\n", args, c.CallID)
			return map[string]any{"hit": args, "call": c.CallID}, nil
		},
		"slow": runtime.UnsafeToRepeat(func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			select {
			case <-time.After(2 * time.Second):
			case <-ctx.Done():
			}
			return "slow done", nil
		}),
	}}
}

func startChild(t *testing.T, db, src string, env ...string) *exec.Cmd {
	t.Helper()
	return childproc.Start(t, append([]string{"NOOK_RUNTIME_CHILD=1", "NOOK_RUNTIME_DB=" + db, "NOOK_RUNTIME_SRC=" + src}, env...)...)
}

// A run whose process is SIGKILLed is failed as interrupted by the next
// process that looks, at once (the dead pid is seen), not after the lease
// runs out.
func TestRunOfKilledProcessIsInterrupted(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	child := startChild(t, db, "out before the crash\nhang")
	time.Sleep(50 * time.Millisecond) // let the output be stored
	child.Process.Signal(syscall.SIGKILL)
	child.Wait()

	ws := openWS(t, db, runtime.Options{})
	ctx := context.Background()
	h, err := ws.Runtime().GetExec(ctx, "child", runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	res, err := h.Result(wctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusFailed || res.ExitCode != 1 {
		t.Errorf("status %s code %d", res.Status, res.ExitCode)
	}
	if string(res.Stdout) != "before the crash\n" {
		t.Errorf("stdout %q", res.Stdout)
	}
	want := "Execution was interrupted: the process running it stopped before it finished.\n"
	if string(res.Stderr) != want || res.Error != strings.TrimSpace(want) {
		t.Errorf("stderr %q error %q", res.Stderr, res.Error)
	}
}

// A second process streams the events of a run as the first process
// produces them, and can kill it.
func TestReattachFromAnotherProcess(t *testing.T) {
	db := filepath.Join(t.TempDir(), "w.db")
	child := startChild(t, db, "out one\nsleep 100ms\nout two\nsleep 100ms\nerr three\nhang")
	defer child.Process.Kill()
	ws := openWS(t, db, runtime.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rt := ws.Runtime()
	h, err := rt.GetExec(ctx, "child", runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for len(got) < 3 {
		e, err := h.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e.Kind.String()+":"+string(e.Data))
	}
	if strings.Join(got, "") != "stdout:one\nstdout:two\nstderr:three\n" {
		t.Fatalf("events %q", got)
	}
	if err := rt.KillExec(ctx, "child"); err != nil {
		t.Fatal(err)
	}
	var last runtime.Event
	for {
		e, err := h.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		last = e
	}
	if last.Kind != runtime.EventExit || last.Status != runtime.StatusCancelled {
		t.Errorf("last event %+v", last)
	}
	if err := child.Wait(); err != nil {
		t.Errorf("child: %v", err)
	}
	// Re-attach from a cursor after the end.
	h2, _ := rt.GetExec(ctx, "child", runtime.GetOptions{After: 2})
	e, _ := h2.Next(ctx)
	if e.Seq != 3 || string(e.Data) != "three\n" {
		t.Errorf("from cursor 2: %+v", e)
	}
}
