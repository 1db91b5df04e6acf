package runtime_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// A run whose spill file cannot be written (the workspace is full) says so
// in its result, and the message is true about what the file holds.
func TestSpillFailureIsReported(t *testing.T) {
	ctx := context.Background()
	ws, err := nook.Open(ctx, filepath.Join(t.TempDir(), "w.db"),
		nook.WithLimits(vfs.Limits{MaxTotalBytes: 1 << 20}),
		nook.WithRuntime(runtime.Options{Backends: []runtime.Backend{&scriptBackend{}}}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	res := run(t, ws.Runtime(), "flood 3000000", runtime.ExecOptions{ID: "spill"})
	if res.Status != runtime.StatusCompleted || !res.Truncated || res.StdoutBytes != 3_000_000 {
		t.Fatalf("status %s truncated %v bytes %d", res.Status, res.Truncated, res.StdoutBytes)
	}
	fi, err := ws.FS().Stat(ctx, "/.nook/runs/spill/stdout")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() >= 3_000_000 {
		t.Fatalf("the spill file holds %d bytes: the workspace limit did not bite", fi.Size())
	}
	want := fmt.Sprintf("the full stdout could not be saved: /.nook/runs/spill/stdout holds only its first %d bytes (", fi.Size())
	if !strings.HasPrefix(res.OutputError, want) || !strings.Contains(res.OutputError, "MaxTotalBytes") {
		t.Errorf("OutputError = %q, want it to start %q and name MaxTotalBytes", res.OutputError, want)
	}
	// Another process reading the record sees the same.
	h, err := ws.Runtime().GetExec(ctx, "spill", runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	again, err := h.Result(ctx)
	if err != nil || again.OutputError != res.OutputError {
		t.Errorf("re-read OutputError = %q, %v", again.OutputError, err)
	}
}

// failEvents makes the workspace database refuse new output events (kinds
// 1 and 2: stdout, stderr) while on, through a trigger: a real SQLite
// failure, with no hook in the code under test.
type failEvents struct {
	t *testing.T
	c *sqlite3.Conn
}

func newFailEvents(t *testing.T, path string) *failEvents {
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.BusyTimeout(10 * time.Second)
	err = c.Exec(`CREATE TABLE test_fail(on_ INTEGER); INSERT INTO test_fail VALUES (0);
		CREATE TRIGGER test_fail_events BEFORE INSERT ON journal_events
		WHEN NEW.kind IN (1, 2) AND (SELECT on_ FROM test_fail) = 1
		BEGIN SELECT RAISE(ABORT, 'injected failure'); END;`)
	if err != nil {
		t.Fatal(err)
	}
	return &failEvents{t: t, c: c}
}

func (f *failEvents) set(on bool) {
	v := 0
	if on {
		v = 1
	}
	if err := f.c.Exec(fmt.Sprintf(`UPDATE test_fail SET on_ = %d`, v)); err != nil {
		f.t.Fatal(err)
	}
}

// An Append that fails keeps its events for the next flush: nothing is lost
// and sequence numbers have no gaps.
func TestAppendFailureLosesNoEvent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "w.db")
	ws := openWS(t, path, runtime.Options{})
	fail := newFailEvents(t, path)
	fail.set(true)
	h, err := ws.Runtime().Exec(ctx, "out one\nerr two\nsleep 400ms\nout three", runtime.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // several failed flushes
	fail.set(false)
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusCompleted || string(res.Stdout) != "one\nthree\n" || string(res.Stderr) != "two\n" {
		t.Fatalf("status %s stdout %q stderr %q (%s)", res.Status, res.Stdout, res.Stderr, res.Error)
	}
	evs := events(t, ws.Runtime(), res.ID, 0)
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d: %+v", i, e.Seq, evs)
		}
	}
}

// A run whose output cannot be stored at all is stopped, and says why.
func TestOutputThatCannotBeStoredFailsTheRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	ws := openWS(t, path, runtime.Options{})
	fail := newFailEvents(t, path)
	fail.set(true)
	res := run(t, ws.Runtime(), "out lost\nsleep 10s\nout never", runtime.ExecOptions{})
	if res.Status != runtime.StatusFailed || res.ExitCode != 1 {
		t.Fatalf("status %s exit %d", res.Status, res.ExitCode)
	}
	want := "Execution stopped: its output could not be stored (sqlite3: constraint failed: injected failure)."
	if !strings.HasPrefix(res.Error, want) || !strings.Contains(res.Error, "output events could not be stored") {
		t.Errorf("error %q, want it to start %q", res.Error, want)
	}
	// The runtime goes on: a healthy run afterwards completes.
	fail.set(false)
	if res := run(t, ws.Runtime(), "out ok", runtime.ExecOptions{}); res.Status != runtime.StatusCompleted || string(res.Stdout) != "ok\n" {
		t.Errorf("next run: %s %q", res.Status, res.Stdout)
	}
}
