package js_test

import (
	"bytes"
	"context"
	"os"
	goruntime "runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/internal/tiertest"
	"github.com/nookdev/nook/runtime"
)

func selfRSS(t testing.TB) int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm")
	}
	n, _ := strconv.ParseInt(string(bytes.Fields(b)[1]), 10, 64)
	return n * int64(os.Getpagesize())
}

// hog is a program that takes about 100 MB and holds it for a few seconds.
const hog = `const a = []; for (let i = 0; i < 100; i++) a.push(new Uint8Array(1 << 20).fill(i + 1));` +
	`const t = Date.now(); while (Date.now() - t < 4000) {} console.log(a.length)`

// MaxMemoryBytes bounds a tree of runs, not each run: eight nested runs
// that each take 100 MB at once, under the default 256 MiB, stop the run
// that started them with a LimitError naming MaxMemoryBytes (in process
// the watchdog adds the tree's charges up; in the process tier the parent
// adds up its workers' resident memory), and the host stays small.
func TestNestedRunsShareMemoryBudget(t *testing.T) {
	if raceOn {
		t.Skip("the race detector's memory is part of what is measured")
	}
	hogSrc := strings.ReplaceAll(hog, "'", `'\''`)
	cases := []struct{ name, backend, src string }{
		{"child_process", "js", `
import { exec } from "node:child_process";
import { promisify } from "node:util";
const run = promisify(exec);
const rs = await Promise.allSettled(Array.from({ length: 8 }, () => run("node -e '` + hogSrc + `'")));
console.log(rs.map(r => r.status).join(" "));`},
		{"shell", "shell", `for i in 1 2 3 4 5 6 7 8; do node -e '` + hogSrc + `' & done; wait; echo all done`},
	}
	want := "exceeds the limit MaxMemoryBytes (268435456)"
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := shellWS(t)
			g0 := goruntime.NumGoroutine()
			debug.FreeOSMemory()
			rss0 := selfRSS(t)
			var peak atomic.Int64
			done := make(chan struct{})
			go func() {
				for {
					if v := selfRSS(t); v > peak.Load() {
						peak.Store(v)
					}
					select {
					case <-done:
						return
					case <-time.After(time.Millisecond):
					}
				}
			}()
			res := runWS(t, ws, c.src, runtime.ExecOptions{Backend: c.backend, Timeout: 25 * time.Second})
			close(done)
			if res.Status != runtime.StatusFailed || !strings.Contains(res.Error, want) {
				t.Fatalf("status %s error %q\nstdout %s\nstderr %s", res.Status, res.Error, res.Stdout, res.Stderr)
			}
			t.Logf("%s; RSS %d MiB, peak %d MiB", res.Error, rss0>>20, peak.Load()>>20)
			if tiertest.Pool == nil && peak.Load() > rss0+256<<20+128<<20 {
				t.Errorf("the host peaked at %d MiB of RSS from %d MiB", peak.Load()>>20, rss0>>20)
			}
			var ms goruntime.MemStats
			for i := 0; ; i++ {
				debug.FreeOSMemory()
				goruntime.ReadMemStats(&ms)
				r, g := selfRSS(t), goruntime.NumGoroutine()
				if r < rss0+48<<20 && g <= g0+4 {
					break
				}
				if i == 50 {
					t.Fatalf("host did not settle: RSS %d MiB (before %d MiB), %d goroutines (before %d)", r>>20, rss0>>20, g, g0)
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
}

// In the process tier MaxCPUTime bounds a tree of runs too: three nested
// runs of 700 ms of CPU each, one after the other, pass a limit of one
// second together, and the run that started them fails naming it.
func TestNestedRunsShareCPUBudget(t *testing.T) {
	if tiertest.Pool == nil {
		t.Skip("CPU time is measured in the process tier (NOOK_TEST_ISOLATION=process)")
	}
	ws := shellWS(t, nook.WithRuntime(runtime.Options{Limits: runtime.Limits{MaxCPUTime: time.Second}}))
	spin := `const t = Date.now(); while (Date.now() - t < 700) {}`
	res := runWS(t, ws, `for i in 1 2 3; do node -e '`+spin+`'; echo "ran $i: $?"; done`,
		runtime.ExecOptions{Backend: "shell", Timeout: 25 * time.Second})
	want := "of a run and the runs nested in it exceeds the limit MaxCPUTime (1000000000)"
	if res.Status != runtime.StatusFailed || !strings.Contains(res.Error, want) {
		t.Fatalf("status %s error %q\nstdout %s\nstderr %s", res.Status, res.Error, res.Stdout, res.Stderr)
	}
	if !strings.HasPrefix(string(res.Stdout), "ran 1: 0\n") {
		t.Errorf("stdout %q: the first nested run should have completed within the budget", res.Stdout)
	}
}

// A shell run that sleeps while a JavaScript run of another tree blows up
// is charged nothing for it: the bomb stops naming MaxMemoryBytes and the
// shell finishes.
func TestSleepingShellBesideABomb(t *testing.T) {
	ws := shellWS(t, nook.WithRuntime(runtime.Options{Limits: runtime.Limits{MaxMemoryBytes: 64 << 20}}))
	ctx := context.Background()
	sh, err := ws.Runtime().Exec(ctx, `sleep 1.5; echo slept`, runtime.ExecOptions{Backend: "shell"})
	if err != nil {
		t.Fatal(err)
	}
	bomb := runWS(t, ws, `const a = []; for (;;) a.push(new Array(1e5).fill(1));`, runtime.ExecOptions{Timeout: 20 * time.Second})
	if bomb.Status != runtime.StatusFailed || !strings.Contains(bomb.Error, "exceeds the limit MaxMemoryBytes (67108864)") {
		t.Fatalf("bomb: status %s error %q", bomb.Status, bomb.Error)
	}
	res, err := sh.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusCompleted || string(res.Stdout) != "slept\n" {
		t.Fatalf("the sleeping shell: status %s error %q stdout %q", res.Status, res.Error, res.Stdout)
	}
}
