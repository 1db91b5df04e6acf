package runtime_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/nookdev/nook/runtime"
)

// A runtime idle for longer than its lease's life still holds a live lease:
// a run it starts then is never taken for an orphan by another runtime
// sharing the workspace, though that one recovers and reaps in a loop.
// (Both runtimes are in this process, so the pid check, which would spare
// the run, does not apply: only the lease does.)
func TestIdleRuntimeKeepsItsLease(t *testing.T) {
	defer runtime.SetLeaseTiming(400*time.Millisecond, 100*time.Millisecond, 50*time.Millisecond)()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.db")
	a := openWS(t, path, runtime.Options{})
	time.Sleep(1200 * time.Millisecond) // three lease lives, idle

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var rounds atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			b := openWS(t, path, runtime.Options{}) // opening reaps orphans
			b.Runtime().Recover(ctx)
			b.Close()
			rounds.Add(1)
		}
	}()
	res := run(t, a.Runtime(), "out start\nsleep 1200ms\nout end", runtime.ExecOptions{})
	close(stop)
	wg.Wait()
	if res.Status != runtime.StatusCompleted || string(res.Stdout) != "start\nend\n" {
		t.Fatalf("the run was taken over: %s %q %q", res.Status, res.Stdout, res.Error)
	}
	if rounds.Load() < 3 {
		t.Fatalf("the other runtime recovered only %d times", rounds.Load())
	}
}

// A runtime that cannot renew its lease stops its runs, with an error that
// says why, before the lease expires and another process could take them.
func TestLeaseRenewalFailureStopsRuns(t *testing.T) {
	defer runtime.SetLeaseTiming(600*time.Millisecond, 150*time.Millisecond, 50*time.Millisecond)()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.db")
	var logs syncBuffer
	ws := openWS(t, path, runtime.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.BusyTimeout(10 * time.Second)
	if renewed, held := ws.Runtime().Lease(); !held || time.Since(renewed) > time.Minute {
		t.Errorf("a new runtime's lease: renewed %v, held %v", renewed, held)
	}
	h, err := ws.Runtime().Exec(ctx, "out start\nsleep 20s", runtime.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Exec(`CREATE TRIGGER test_no_renew BEFORE UPDATE ON journal_owners
		BEGIN SELECT RAISE(ABORT, 'injected failure'); END;`)
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := "Execution stopped: this process could not renew its lease on the workspace (sqlite3: constraint failed: injected failure)."
	if res.Status != runtime.StatusFailed || res.Error != want || !strings.HasSuffix(string(res.Stderr), want+"\n") {
		t.Fatalf("status %s error %q stderr %q", res.Status, res.Error, res.Stderr)
	}
	if d := res.Finished.Sub(res.Created); d > 10*time.Second {
		t.Errorf("the run went on for %s", d)
	}
	if renewed, held := ws.Runtime().Lease(); held {
		t.Errorf("the lease not renewed since %v (TTL 600ms) is reported held", renewed)
	}
	if l := logs.String(); !strings.Contains(l, `msg="nook: renewing the runtime's lease failed"`) || !strings.Contains(l, "injected failure") {
		t.Errorf("the failure was not logged: %q", l)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
