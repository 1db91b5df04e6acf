package memwatch

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
)

// grow allocates n MiB a MiB at a time, pausing so that the watchdog
// sees each step, and returns what it allocated.
func grow(n int) [][]byte {
	var keep [][]byte
	for i := 0; i < n; i++ {
		keep = append(keep, make([]byte, 1<<20))
		time.Sleep(3 * Tick)
	}
	return keep
}

// Two runs of one tree that each grow 6 MiB pass the tree's 8 MiB
// together: both are stopped with the same error, naming MaxMemoryBytes
// and the tree. A run of another tree that waits meanwhile is charged
// nothing and goes on.
func TestTreeShareOneBudget(t *testing.T) {
	var stopped [3]atomic.Pointer[runtime.LimitError]
	watch := func(i int, tree string) *Run {
		return Watch(Options{Tree: tree, Limit: 8 << 20, Stop: func(le *runtime.LimitError) { stopped[i].Store(le) }})
	}
	a, b := watch(0, "t1"), watch(1, "t1")
	other := watch(2, "t2")
	other.Leave() // waiting: charged nothing
	defer a.Done()
	defer b.Done()
	defer other.Done()
	time.Sleep(5 * Tick)
	c0 := other.Charge()
	keep := grow(14)
	for i := 0; i < 100 && stopped[1].Load() == nil; i++ {
		time.Sleep(Tick)
	}
	for i := range 2 {
		le := stopped[i].Load()
		if le == nil || le.Limit != "MaxMemoryBytes" || le.Max != 8<<20 {
			t.Fatalf("run %d: stopped with %v, want MaxMemoryBytes (8388608)", i, le)
		}
		if want := "(by 2 runs of one tree: a run and the runs nested in it)"; !strings.Contains(le.What, want) {
			t.Errorf("run %d: %q does not say %q", i, le.What, want)
		}
	}
	if le := stopped[2].Load(); le != nil || other.Charge() > c0 {
		t.Errorf("the waiting run of another tree was charged %d (from %d) and stopped with %v", other.Charge(), c0, le)
	}
	_ = keep
}

// A run of a tree of its own (Tree "") is not added to another's.
func TestOwnTree(t *testing.T) {
	var n atomic.Int32
	runs := []*Run{}
	for i := 0; i < 2; i++ {
		runs = append(runs, Watch(Options{Limit: 16 << 20, Stop: func(*runtime.LimitError) { n.Add(1) }}))
	}
	keep := grow(20) // 10 MiB each: under 16 MiB alone
	time.Sleep(10 * Tick)
	for _, r := range runs {
		r.Done()
	}
	if n.Load() != 0 {
		t.Fatalf("runs of separate trees were stopped %d times for 20 MiB between them", n.Load())
	}
	_ = keep
}
