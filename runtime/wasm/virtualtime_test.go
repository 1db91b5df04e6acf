package wasm_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
)

// Under virtual time a WASI guest's sleep (Go's time.Sleep: poll_oneoff on
// the monotonic clock, then a check of the clock) ends at once, even with a
// guest clock that moves only a millisecond a read (a scenario's): the
// clock reads no earlier than the end of the sleep. Without virtual time
// that guest would poll for real until a thousand reads a second had
// passed.
func TestVirtualTimeSleep(t *testing.T) {
	var reads atomic.Int64
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return start.Add(time.Duration(reads.Add(1)) * time.Millisecond) }
	ws := openWS(t, nook.WithRuntime(runtime.Options{GuestClock: clock, VirtualTime: true}))
	ok(t, run(t, ws, runtime.ExecOptions{}, "hello")) // compiled once, before the clock starts
	began := time.Now()
	for _, policy := range []runtime.Policy{runtime.PolicyFail, runtime.PolicyReplay} {
		res := run(t, ws, runtime.ExecOptions{OnInterrupt: policy}, "sleep", "20s")
		ok(t, res)
		if string(res.Stdout) != "slept\n" {
			t.Fatalf("stdout %q", res.Stdout)
		}
	}
	took := time.Since(began)
	if took > 5*time.Second {
		t.Errorf("two virtual sleeps of 20 s took %s", took)
	}
	t.Logf("two virtual sleeps of 20 s in %s (%d clock reads)", took.Round(time.Millisecond), reads.Load())
}
