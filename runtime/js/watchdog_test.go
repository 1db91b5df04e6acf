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
	deadline := time.Now().Add(5 * time.Second)
	for r.fatalErr() == nil && time.Now().Before(deadline) {
		keep = append(keep, make([]byte, 1<<20))
		time.Sleep(time.Millisecond)
	}
	var le *runtime.LimitError
	if !errors.As(r.fatalErr(), &le) || le.Limit != "MaxMemoryBytes" {
		t.Fatalf("fatal = %v", r.fatalErr())
	}
	c0 := r.mem.Charge()
	if r.mem.Stopped() == nil {
		t.Fatalf("the run is not marked stopped after its interrupt")
	}
	for c := r.mem.Charge(); c < c0+8<<20 && time.Now().Before(deadline); c = r.mem.Charge() {
		keep = append(keep, make([]byte, 1<<20))
		time.Sleep(time.Millisecond)
	}
	if c := r.mem.Charge(); c < c0+8<<20 {
		t.Errorf("the growth after the interrupt was not charged: %d then %d", c0, c)
	}
	_ = keep
}
