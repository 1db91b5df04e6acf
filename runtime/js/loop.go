package js

import (
	"container/heap"
	"errors"
	"time"

	"github.com/dop251/goja"

	"github.com/nookdev/nook/runtime/host"
)

// The event loop owns the goja runtime: only the goroutine running the
// loop touches it. Work done elsewhere (a host call in flight) comes back
// as a completion carrying the number the call got when it was issued, and
// completions are applied strictly in that order, early arrivals waiting
// for the ones before them. So the order in which promises over host calls
// settle depends on the order the program issued them, never on which
// goroutine finished first: Promise.all over host calls is deterministic,
// and a replayed run takes the same path.
//
// Timers use real delays and fire in (due time, creation order); under
// virtual time (Request.VirtualTime) a wait for the next timer with no
// host call in flight is skipped: the loop's clock jumps to the timer's
// due time (skew) and fires it at once. One
// macrotask is one timer callback or one completion; goja drains the
// microtask queue after each.

// errNeverSettles is the error of a program that waits for a promise when
// nothing left could settle it.
var errNeverSettles = errors.New("the program is waiting for a promise that can never settle (no timers or host calls are pending)")

// completion is the result of an asynchronous host call, applied on the
// loop goroutine.
type completion struct {
	seq   uint64
	apply func() error
}

// timer is one setTimeout/setInterval/setImmediate.
type timer struct {
	id       int64
	due      time.Time
	interval time.Duration // > 0 for setInterval
	repeat   bool
	fn       goja.Callable
	self     goja.Value // what the callback gets as this: its Timeout, as in Node
	ref      bool
	index    int // in the heap; -1 when not scheduled
	// fsBarrier is the number of async filesystem calls issued before the
	// timer was set: it fires only after their completions, which are
	// quick, so "fs.readFile(cb); setTimeout(f, 0)" runs cb first on
	// every run.
	fsBarrier int
}

type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if !h[i].due.Equal(h[j].due) {
		return h[i].due.Before(h[j].due)
	}
	return h[i].id < h[j].id
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i]; h[i].index = i; h[j].index = j }
func (h *timerHeap) Push(x any)   { t := x.(*timer); t.index = len(*h); *h = append(*h, t) }
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	t.index = -1
	return t
}

// loop is the state of a run's event loop.
type loop struct {
	done      chan completion         // completions from host-call goroutines
	early     map[uint64]func() error // completions waiting for earlier ones
	nextSeq   uint64                  // number of the next issued asynchronous call
	callSeq   int64                   // calls issued, synchronous ones included (runtime.Call.Seq)
	nextApply uint64                  // number of the next completion to apply
	pending   int                     // async host calls issued and not yet applied
	lastFS    chan struct{}           // closed when the last issued async fs call has executed
	fsIssued  int                     // async fs calls issued
	fsApplied int                     // async fs calls whose completion was applied

	timers    timerHeap
	byID      map[int64]*timer
	lastTimer int64
	refTimers int // scheduled timers that keep the loop alive
	clock     *time.Timer
	skew      time.Duration // virtual time skipped: the loop's clock is time.Now()+skew
}

// now is the loop's clock, the one timers fall due by.
func (l *loop) now() time.Time { return time.Now().Add(l.skew) }

func newLoop() loop {
	return loop{
		done:  make(chan completion, 16),
		early: map[uint64]func() error{},
		byID:  map[int64]*timer{},
	}
}

// addTimer schedules fn after delay; repeat makes it an interval.
func (r *run) addTimer(fn goja.Callable, self goja.Value, delay time.Duration, repeat bool) int64 {
	if delay < 0 {
		delay = 0
	}
	r.lastTimer++
	t := &timer{id: r.lastTimer, due: r.now().Add(delay), fn: fn, self: self, repeat: repeat, interval: delay, ref: true, fsBarrier: r.fsIssued}
	if repeat && t.interval < time.Millisecond {
		t.interval = time.Millisecond
	}
	r.byID[t.id] = t
	heap.Push(&r.timers, t)
	r.refTimers++
	return t.id
}

// clearTimer cancels a timer; unknown ids are ignored, as in Node.
func (r *run) clearTimer(id int64) {
	t := r.byID[id]
	if t == nil {
		return
	}
	delete(r.byID, id)
	if t.index >= 0 {
		heap.Remove(&r.timers, t.index)
		if t.ref {
			r.refTimers--
		}
	}
}

// refTimer sets whether a timer keeps the loop alive (Timeout.ref/unref).
func (r *run) refTimer(id int64, ref bool) {
	t := r.byID[id]
	if t == nil || t.ref == ref {
		return
	}
	t.ref = ref
	if t.index >= 0 {
		if ref {
			r.refTimers++
		} else {
			r.refTimers--
		}
	}
}

// fireTimer runs the first timer, which is due.
func (r *run) fireTimer() error {
	return r.fire(heap.Pop(&r.timers).(*timer))
}

// fire runs timer t, which is out of the heap, and reports it to a
// journaling host.
func (r *run) fire(t *timer) error {
	if tj, ok := r.host.(host.TimerJournal); ok {
		tj.TimerFired(t.id, r.nextApply)
	}
	if t.ref {
		r.refTimers--
	}
	if t.repeat {
		t.due = r.now().Add(t.interval)
		t.fsBarrier = r.fsIssued
		heap.Push(&r.timers, t)
		if t.ref {
			r.refTimers++
		}
	} else {
		delete(r.byID, t.id)
	}
	return r.enter(func() error {
		self := t.self
		if self == nil {
			self = goja.Undefined()
		}
		_, err := t.fn(self)
		return err
	})
}

// deliver applies completions in issue order.
func (r *run) deliver(c completion) error {
	r.early[c.seq] = c.apply
	return r.deliverReady()
}

// deliverReady applies the completions whose turn it is. A replay stops
// where the record has a timer fire: completions answered from the
// journal arrive at once, and the ones after that point must wait for it.
func (r *run) deliverReady() error {
	tj, _ := r.host.(host.TimerJournal)
	for {
		f, ok := r.early[r.nextApply]
		if !ok {
			return nil
		}
		if tj != nil {
			if _, after, ok := tj.NextTimer(); ok && after == r.nextApply {
				return nil
			}
		}
		delete(r.early, r.nextApply)
		r.nextApply++
		r.pending--
		if err := f(); err != nil {
			return err
		}
	}
}

// runLoop runs macrotasks until settled reports true, or, when settled is
// nil, until nothing is pending. It returns the error that ends the run
// early: a fatal error (a limit, an uncaught exception, process.exit),
// the context's error, or errNeverSettles when settled can never become
// true.
func (r *run) runLoop(settled func() bool) error {
	// Rejections left unhandled by the task that ran before the loop.
	if err := r.afterTask(); err != nil {
		return err
	}
	for {
		if err := r.fatalErr(); err != nil {
			return err
		}
		if settled != nil && settled() {
			return nil
		}
		// A replay fires the recorded timer once as many completions as
		// then were delivered, and no other.
		replayTimer, replaying := r.recordedTimer()
		if replaying && replayTimer != nil {
			heap.Remove(&r.timers, replayTimer.index)
			if err := r.check(r.fire(replayTimer)); err != nil {
				return err
			}
			if err := r.afterTask(); err != nil {
				return err
			}
			// The completions held back for this timer (see deliverReady).
			for err := r.deliverReady(); err != nil; err = r.deliverReady() {
				if err := r.check(err); err != nil {
					return err
				}
			}
			if err := r.afterTask(); err != nil {
				return err
			}
			continue
		}
		blocked := replaying || len(r.timers) > 0 && r.timers[0].fsBarrier > r.fsApplied
		if len(r.timers) > 0 && !blocked && !r.timers[0].due.After(r.now()) {
			if err := r.check(r.fireTimer()); err != nil {
				return err
			}
			if err := r.afterTask(); err != nil {
				return err
			}
			continue
		}
		if r.pending == 0 && r.refTimers == 0 {
			if settled == nil {
				return nil
			}
			return errNeverSettles
		}
		if r.req.VirtualTime && r.pending == 0 && len(r.timers) > 0 && !blocked {
			// Nothing but timers to wait for: their time passes at once.
			r.skew += r.timers[0].due.Sub(r.now())
			continue
		}
		var timerC <-chan time.Time
		if len(r.timers) > 0 && !blocked && r.refTimers+r.pending > 0 {
			d := r.timers[0].due.Sub(r.now())
			if r.clock == nil {
				r.clock = time.NewTimer(d)
			} else {
				r.clock.Reset(d)
			}
			timerC = r.clock.C
		}
		select {
		case c := <-r.loop.done:
			// An exception a listener handled (uncaughtException) lets
			// the completions behind it through.
			for err := r.deliver(c); err != nil; err = r.deliverReady() {
				if err := r.check(err); err != nil {
					return err
				}
			}
			if err := r.afterTask(); err != nil {
				return err
			}
		case <-timerC:
		case <-r.wake:
		case <-r.ctx.Done():
			return r.ctx.Err()
		}
		if r.clock != nil && timerC != nil && !r.clock.Stop() {
			select {
			case <-r.clock.C:
			default:
			}
		}
	}
}

// recordedTimer reports whether a journal dictates the timers (replaying)
// and, when the recorded firing is due now (as many completions delivered
// as then), the timer to fire. A recorded timer that does not exist, or a
// replay that can no longer reach the recorded point, is a divergence:
// the host is told the firing that happened instead and fails the run.
func (r *run) recordedTimer() (*timer, bool) {
	tj, ok := r.host.(host.TimerJournal)
	if !ok {
		return nil, false
	}
	id, after, ok := tj.NextTimer()
	if !ok {
		return nil, false
	}
	if r.nextApply < after {
		if r.pending == 0 {
			tj.TimerFired(-1, r.nextApply) // cannot get there: diverged
		}
		return nil, true
	}
	t := r.byID[id]
	if t == nil || t.index < 0 || r.nextApply > after {
		tj.TimerFired(-1, r.nextApply)
		return nil, true
	}
	return t, true
}

// afterTask runs after each macrotask: a promise rejected with no handler
// by then fails the run, as in Node.
func (r *run) afterTask() error {
	if err := r.fatalErr(); err != nil {
		return err
	}
	if err := r.runTicks(); err != nil {
		return err
	}
	for len(r.rejected) > 0 {
		p := r.rejected[0]
		r.rejected = r.rejected[1:]
		if r.awaited[p] || p.State() != goja.PromiseStateRejected {
			continue
		}
		if err := r.uncaught(p.Result(), true); err != nil {
			return err
		}
	}
	return nil
}
