// Package memwatch is the in-process memory watchdog every backend shares.
//
// Go cannot cap the memory of a goroutine, and it measures only the whole
// process, so one goroutine samples the heap every Tick while any run is
// watched and charges each increase to the runs that were active during
// that tick (split evenly); when the heap shrinks (a collection) every
// charge shrinks in proportion. The runs of one tree (a run and the runs
// nested in it, which share its Request.Tree) share one budget: when their
// charges add up past the tree's MaxMemoryBytes, every run of the tree is
// stopped with a *runtime.LimitError naming MaxMemoryBytes. A run that is
// waiting (for timers, host calls, a nested run) is charged nothing, so a
// memory bomb stops while the runs sharing the process go on.
//
// A backend registers a run with Watch, says when it runs and waits with
// Enter and Leave (or an Active function), and calls Done when the run's
// goroutines have ended. See runtime/RATIONALE.md, "Memory and CPU: one
// budget per tree of runs", and runtime/js/RATIONALE.md, "Memory".
package memwatch

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nookdev/nook/runtime/host"
)

// Tick is how often the watchdog samples the heap.
const Tick = 2 * time.Millisecond

// ReturnAfter is the charge past which a run's end returns the freed heap
// to the operating system at once (debug.FreeOSMemory), instead of leaving
// it to the Go runtime's background scavenger, which returns a memory bomb's
// gigabytes over minutes.
const ReturnAfter = 64 << 20

// Run is one watched run.
type Run struct {
	tree   *tree
	limit  float64
	active func() bool
	stop   func(*host.LimitError)

	busy    atomic.Int32 // Enter minus Leave
	touched atomic.Bool  // Enter was called since the watchdog last looked

	// Under w.mu:
	charge      float64
	peak        float64
	interrupted *host.LimitError
}

type tree struct {
	key  string
	runs map[*Run]struct{}
}

var w struct {
	mu        sync.Mutex
	runs      map[*Run]struct{}
	trees     map[string]*tree
	running   bool
	freeing   atomic.Bool // a goroutine returns memory
	freeAgain atomic.Bool // memory to return since it last started
}

// Options describe a run to Watch.
type Options struct {
	// Tree names the run's tree (runtime.Request.Tree); empty makes the
	// run a tree of its own.
	Tree string
	// Limit is the run's MaxMemoryBytes (≤ 0: not watched).
	Limit int64
	// Active, when set, reports whether the run executed code since it
	// was last asked (it replaces Enter and Leave).
	Active func() bool
	// Stop stops the run. The watchdog calls it, outside its lock, on
	// every tick while the run's tree is over its limit, with the same
	// error each time; it must be cheap and idempotent.
	Stop func(*host.LimitError)
}

// Watch registers a run, starting the watchdog if it is not running. A
// run registered without Active counts as active from the start (as if
// Enter had been called once).
func Watch(o Options) *Run {
	r := &Run{limit: float64(o.Limit), active: o.Active, stop: o.Stop}
	if o.Limit <= 0 {
		r.limit = math.Inf(1)
	}
	if o.Active == nil {
		r.busy.Store(1)
		r.touched.Store(true)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.runs == nil {
		w.runs = map[*Run]struct{}{}
		w.trees = map[string]*tree{}
	}
	t := w.trees[o.Tree]
	if t == nil || o.Tree == "" {
		t = &tree{key: o.Tree, runs: map[*Run]struct{}{}}
		if o.Tree != "" {
			w.trees[o.Tree] = t
		}
	}
	r.tree = t
	t.runs[r] = struct{}{}
	w.runs[r] = struct{}{}
	if !w.running {
		w.running = true
		go loop()
	}
	return r
}

// Enter says the run executes code again (after Leave).
func (r *Run) Enter() {
	r.busy.Add(1)
	r.touched.Store(true)
}

// Leave says the run waits (a host call, a nested run, a sleep) until
// the matching Enter.
func (r *Run) Leave() { r.busy.Add(-1) }

// Charge is the memory the run is charged with now, in bytes.
func (r *Run) Charge() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return int64(r.charge)
}

// Stopped is the error the run was stopped with, or nil.
func (r *Run) Stopped() *host.LimitError {
	w.mu.Lock()
	defer w.mu.Unlock()
	return r.interrupted
}

// Done unregisters the run. Call it once the run's goroutines have ended:
// until then a run stopped for its memory stays charged (one still inside
// a long native call keeps the blame for what it allocates). A run that
// was charged more than ReturnAfter returns the freed heap to the
// operating system.
func (r *Run) Done() {
	w.mu.Lock()
	if _, ok := w.runs[r]; !ok {
		w.mu.Unlock()
		return
	}
	delete(w.runs, r)
	delete(r.tree.runs, r)
	if len(r.tree.runs) == 0 && w.trees[r.tree.key] == r.tree {
		delete(w.trees, r.tree.key)
	}
	big := r.peak > ReturnAfter || r.interrupted != nil
	w.mu.Unlock()
	if big {
		returnMemory()
	}
}

// returnMemory returns the freed heap to the operating system, in the
// background: one goroutine at a time, which runs once more if asked
// while it ran (a run that ended meanwhile left memory of its own).
func returnMemory() {
	w.freeAgain.Store(true)
	if !w.freeing.CompareAndSwap(false, true) {
		return
	}
	go func() {
		for {
			for w.freeAgain.Swap(false) {
				debug.FreeOSMemory()
			}
			w.freeing.Store(false)
			// One asked after the loop's last look and before freeing
			// was cleared found it set: take its turn.
			if !w.freeAgain.Load() || !w.freeing.CompareAndSwap(false, true) {
				return
			}
		}
	}()
}

func (r *Run) isActive() bool {
	if r.active != nil {
		return r.active()
	}
	return r.touched.Swap(false) || r.busy.Load() > 0
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func heapBytes(s []metrics.Sample) float64 {
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return float64(s[0].Value.Uint64())
}

type stopCall struct {
	r   *Run
	err *host.LimitError
}

func loop() {
	s := []metrics.Sample{{Name: heapMetric}}
	prev := heapBytes(s)
	t := time.NewTicker(Tick)
	defer t.Stop()
	var stops []stopCall
	for range t.C {
		h := heapBytes(s)
		w.mu.Lock()
		if len(w.runs) == 0 {
			w.running = false
			w.mu.Unlock()
			return
		}
		stops = tick(h, prev, stops[:0])
		w.mu.Unlock()
		prev = h
		for _, c := range stops {
			c.r.stop(c.err)
		}
	}
}

// tick charges the heap's change from prev to h and returns the runs to
// stop. w.mu is held.
func tick(h, prev float64, stops []stopCall) []stopCall {
	var active []*Run
	for r := range w.runs {
		if r.isActive() {
			active = append(active, r)
		}
	}
	switch {
	case h > prev && len(active) > 0:
		share := (h - prev) / float64(len(active))
		for _, r := range active {
			r.charge += share
			r.peak = max(r.peak, r.charge)
		}
	case h < prev && prev > 0:
		for r := range w.runs {
			r.charge *= h / prev
		}
	}
	seen := map[*tree]bool{}
	for r := range w.runs {
		t := r.tree
		if seen[t] {
			continue
		}
		seen[t] = true
		var total float64
		limit := math.Inf(1)
		for q := range t.runs {
			total += q.charge
			limit = min(limit, q.limit)
		}
		if total <= limit {
			continue
		}
		for q := range t.runs {
			if q.interrupted == nil {
				what := fmt.Sprintf("memory growth of about %d MiB", int64(total)>>20)
				if len(t.runs) > 1 {
					what += fmt.Sprintf(" (by %d runs of one tree: a run and the runs nested in it)", len(t.runs))
				}
				q.interrupted = &host.LimitError{Limit: "MaxMemoryBytes", Max: int64(limit), What: what}
			}
			if q.stop != nil {
				stops = append(stops, stopCall{q, q.interrupted})
			}
		}
	}
	return stops
}

// Host returns h with its calls counted as waiting for r (Leave before a
// call, Enter after it): a nested run or a file read is not the calling
// run's growth. The wrapper has only the methods of runtime.Host.
func Host(h host.Host, r *Run) host.Host { return waitingHost{h, r} }

type waitingHost struct {
	host.Host
	mem *Run
}

func (h waitingHost) Call(ctx context.Context, c *host.Call) (any, error) {
	h.mem.Leave()
	defer h.mem.Enter()
	return h.Host.Call(ctx, c)
}
