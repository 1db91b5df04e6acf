package wasm_test

import (
	"context"
	"fmt"
	"github.com/nookdev/nook/internal/childproc"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/wasm"
)

// TestMain lets the test binary act as a process running a replayable
// guest (see TestWasmReplayAfterCrash).
func TestMain(m *testing.M) {
	if os.Getenv("NOOK_WASM_CHILD") != "" {
		ctx := context.Background()
		guest, err := os.ReadFile(os.Getenv("NOOK_WASM_GUEST"))
		if err != nil {
			panic(err)
		}
		ws := openCrashWS(os.Getenv("NOOK_WASM_DB"), os.Getenv("NOOK_WASM_SIDE"), os.Getenv("NOOK_WASM_CACHE"))
		h, err := ws.Runtime().Exec(ctx, string(guest), runtime.ExecOptions{ID: "g", Backend: "wasm",
			Args: []string{"journal", "/workspace"}, OnInterrupt: runtime.PolicyReplay})
		if err != nil {
			panic(err)
		}
		childproc.Ready()
		h.Wait(ctx)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func openCrashWS(db, side, cache string) *nook.Workspace {
	ws, err := nook.Open(context.Background(), db, nook.WithBackends(wasm.New(wasm.Options{CacheDir: cache})),
		nook.WithModules(map[string]runtime.Module{"ws:side": {
			"hit": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
				f, err := os.OpenFile(side, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
				if err != nil {
					return nil, err
				}
				defer f.Close()
				fmt.Fprintf(f, "%s\n", c.CallID)
				return c.CallID, nil
			},
		}}))
	if err != nil {
		panic(err)
	}
	return ws
}

// A replay-policy WASI guest SIGKILLed at random moments (100 times with
// NOOK_WASM_CRASH_ITERATIONS=100, which .ci/run sets; 3 by default) is
// resumed by the next process each time: its appends happen once, its
// randomness and clock come out the same, its host-module call runs once,
// its output is printed once.
func TestWasmReplayAfterCrash(t *testing.T) {
	n := 3
	if s := os.Getenv("NOOK_WASM_CRASH_ITERATIONS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	if testing.Short() {
		n = 1
	}
	dir := t.TempDir()
	guest := filepath.Join(dir, "probe.wasm")
	if err := os.WriteFile(guest, probe(t), 0o644); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "cache")
	rng := mrand.New(mrand.NewPCG(6, 6))
	for i := range n {
		delay := time.Duration(200+rng.IntN(900)) * time.Millisecond
		t.Run(fmt.Sprint(i), func(t *testing.T) { wasmCrashOnce(t, guest, cache, delay) })
	}
}

func wasmCrashOnce(t *testing.T, guest, cache string, delay time.Duration) {
	dir := t.TempDir()
	db, side := filepath.Join(dir, "w.db"), filepath.Join(dir, "side")
	cmd := childproc.Start(t, "NOOK_WASM_CHILD=1", "NOOK_WASM_DB="+db, "NOOK_WASM_SIDE="+side,
		"NOOK_WASM_GUEST="+guest, "NOOK_WASM_CACHE="+cache)
	time.Sleep(delay)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	ws := openCrashWS(db, side, cache)
	defer ws.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	h, err := ws.Runtime().GetExec(ctx, "g", runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusCompleted {
		t.Fatalf("killed after %v: status %s: %s\n%s", delay, res.Status, res.Error, res.Stderr)
	}
	lines := strings.Split(strings.TrimSuffix(string(res.Stdout), "\n"), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "rand ") || !strings.HasPrefix(lines[1], "clock ") ||
		!strings.HasPrefix(lines[2], `hit "g/`) || lines[3] != "done ab" {
		t.Errorf("killed after %v: stdout:\n%s", delay, res.Stdout)
	}
	// The guest makes one host-module call: it runs once, or twice when the
	// kill caught it in flight, before its result was journaled.
	if b, _ := os.ReadFile(side); strings.Count(string(b), "\n") > 2 {
		t.Errorf("killed after %v: the host module ran %d times: %q", delay, strings.Count(string(b), "\n"), b)
	}
}
