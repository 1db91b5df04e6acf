package replay_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
)

// TestRecoverRacesReader guards a race the runtime had: a runtime opened
// with Options.Recover resumes an interrupted replay run in the background
// (it claimed the run, then prepared it, then registered it), and a reader
// of the same runtime (GetExec → Result) that polled the record in between
// saw a run owned by its own runtime but not running in it, took it for an
// attempt whose end could not be stored, and failed it as "Execution was
// interrupted". The runtime now reserves the run before claiming it.
func TestRecoverRacesReader(t *testing.T) {
	for i := range 5 {
		dir := filepath.Join(t.TempDir(), "w")
		os.MkdirAll(dir, 0o755)
		db, side := filepath.Join(dir, "w.db"), filepath.Join(dir, "side")
		killedChild(t, db, side, 100*time.Millisecond)
		ws, err := openCrashWS(db, side, "resumed", true) // Options.Recover
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		h, err := ws.Runtime().GetExec(ctx, "c", runtime.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := h.Result(ctx)
		cancel()
		ws.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != runtime.StatusCompleted {
			t.Fatalf("attempt %d: status %s: %s", i, res.Status, res.Error)
		}
	}
}
