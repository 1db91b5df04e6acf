package shell_test

import (
	"bytes"
	"os"
	goruntime "runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nookdev/nook/internal/tiertest"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
)

// rss is this process's resident memory.
func rss(t testing.TB) int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm")
	}
	f := bytes.Fields(b)
	n, _ := strconv.ParseInt(string(f[1]), 10, 64)
	return n * int64(os.Getpagesize())
}

// peakRSS samples rss every millisecond until stop is called, which
// returns the highest value seen.
func peakRSS(t testing.TB) (stop func() int64) {
	var peak atomic.Int64
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for {
			if v := rss(t); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	return func() int64 { close(done); <-ended; return peak.Load() }
}

// A shell command that allocates without end (jq building a billion-element
// array) is stopped by the memory watchdog with an error naming
// MaxMemoryBytes, a little past the limit; twenty of them in a row leave
// the process as small as it was.
func TestShellMemoryBomb(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory is part of the RSS measured")
	}
	ws := openWSLimits(t, nil, runtime.Limits{}, shell.Options{})
	want := "exceeds the limit MaxMemoryBytes (268435456)"
	g0 := goruntime.NumGoroutine()
	debug.FreeOSMemory()
	rss0 := rss(t)
	var worst int64
	// Twenty runs take about 85 s on two cores: NOOK_TEST_SLOW=1 asks
	// for them (the measurement); otherwise five, or two in -short.
	n := 5
	if testing.Short() {
		n = 2
	} else if os.Getenv("NOOK_TEST_SLOW") == "1" {
		n = 20
	}
	for i := 0; i < n; i++ {
		stop := peakRSS(t)
		r := run(t, ws, `jq -n '[range(1000000000)]|length'`, runtime.ExecOptions{Timeout: 60 * time.Second})
		peak := stop()
		worst = max(worst, peak)
		if i == 0 {
			t.Logf("%s", r.Error)
		}
		if r.Status != runtime.StatusFailed || !strings.Contains(r.Error, want) || !strings.Contains(string(r.Stderr), want) {
			t.Fatalf("run %d: status %s error %q stderr %q, want failed naming MaxMemoryBytes", i, r.Status, r.Error, r.Stderr)
		}
	}
	// What the runs allocated is garbage now: collected and handed back,
	// the process is as small as before. (Without asking, the runtime's
	// scavenger returns it at its own pace, slower on a loaded machine.)
	var rss1 int64
	for try := 0; try < 20; try++ {
		debug.FreeOSMemory()
		if rss1 = rss(t); rss1 <= rss0+64<<20 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("RSS before %d MiB, peak %d MiB, after %d runs %d MiB", rss0>>20, worst>>20, n, rss1>>20)
	if tiertest.Pool == nil && worst > rss0+256<<20+192<<20 {
		t.Errorf("the process peaked at %d MiB of RSS from %d MiB: more than 192 MiB past the limit", worst>>20, rss0>>20)
	}
	if rss1 > rss0+64<<20 {
		t.Errorf("RSS after the runs is %d MiB, %d MiB before", rss1>>20, rss0>>20)
	}
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	hostSettles(t, g0, ms.HeapInuse)
}
