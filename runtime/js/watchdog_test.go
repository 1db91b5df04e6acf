package js

import (
	"errors"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
)

// After its interrupt a run stays registered and charged until its
// goroutine ends (a run still inside a long native call keeps the blame
// for its growth).
func TestWatchdogKeepsAccounting(t *testing.T) {
	r := &run{req: &runtime.Request{Limits: runtime.Limits{MaxMemoryBytes: 8 << 20}}, wake: make(chan struct{}, 1)}
	unwatch := r.watch()
	defer unwatch()
	r.busy.Store(true)
	var keep [][]byte
	charge := func() (float64, bool) {
		watchdog.mu.Lock()
		defer watchdog.mu.Unlock()
		st, ok := watchdog.runs[r]
		if !ok {
			return 0, false
		}
		return st.charge, st.interrupted
	}
	deadline := time.Now().Add(5 * time.Second)
	for r.fatalErr() == nil && time.Now().Before(deadline) {
		keep = append(keep, make([]byte, 1<<20))
		time.Sleep(time.Millisecond)
	}
	var le *runtime.LimitError
	if !errors.As(r.fatalErr(), &le) || le.Limit != "MaxMemoryBytes" {
		t.Fatalf("fatal = %v", r.fatalErr())
	}
	c0, interrupted := charge()
	if !interrupted {
		t.Fatalf("the run is no longer watched after its interrupt")
	}
	for c, _ := charge(); c < c0+8<<20 && time.Now().Before(deadline); c, _ = charge() {
		keep = append(keep, make([]byte, 1<<20))
		time.Sleep(time.Millisecond)
	}
	if c, _ := charge(); c < c0+8<<20 {
		t.Errorf("the growth after the interrupt was not charged: %.0f then %.0f", c0, c)
	}
	_ = keep
}
