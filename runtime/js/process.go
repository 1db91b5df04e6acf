package js

import (
	"github.com/dop251/goja"
)

// processHooks are the functions process.js hands the backend, so that the
// run's lifecycle reaches process's listeners as in Node: 'beforeExit'
// when the loop is empty, 'exit' when the run ends, 'uncaughtException'
// and 'unhandledRejection' for errors nothing caught.
type processHooks struct {
	beforeExit goja.Callable // () → whether a listener ran
	exit       goja.Callable // ()
	uncaught   goja.Callable // (err, origin) → whether a listener handled it
	ticks      goja.Callable // () runs the process.nextTick queue
}

func (r *run) setProcessHooks(o *goja.Object) {
	h := &processHooks{}
	h.beforeExit, _ = goja.AssertFunction(o.Get("beforeExit"))
	h.exit, _ = goja.AssertFunction(o.Get("exit"))
	h.uncaught, _ = goja.AssertFunction(o.Get("uncaught"))
	h.ticks, _ = goja.AssertFunction(o.Get("ticks"))
	r.procHooks = h
}

// drain runs the loop until nothing is pending, then emits 'beforeExit'
// while its listeners schedule more work, then 'exit'. An exception in a
// listener ends the run like any other.
func (r *run) drain() error {
	for {
		if err := r.runLoop(nil); err != nil {
			return err
		}
		h := r.procHooks
		if h == nil || h.beforeExit == nil {
			break
		}
		var ran goja.Value
		if err := r.check(r.enter(func() error {
			var err error
			ran, err = h.beforeExit(goja.Undefined())
			return err
		})); err != nil {
			return err
		}
		if err := r.afterTask(); err != nil {
			return err
		}
		if !ran.ToBoolean() || (r.pending == 0 && r.refTimers == 0) {
			break
		}
	}
	return r.emitExit()
}

// emitExit emits process's 'exit' (once; process.exit emits it itself).
func (r *run) emitExit() error {
	h := r.procHooks
	if h == nil || h.exit == nil {
		return nil
	}
	return r.check(r.enter(func() error {
		_, err := h.exit(goja.Undefined())
		return err
	}))
}

// runTicks runs the process.nextTick queue, again while the microtasks
// that follow each round queue more ticks (Node's processTicksAndRejections).
func (r *run) runTicks() error {
	for r.ticksPending {
		r.ticksPending = false
		h := r.procHooks
		if h == nil || h.ticks == nil {
			return nil
		}
		if err := r.check(r.enter(func() error {
			_, err := h.ticks(goja.Undefined())
			return err
		})); err != nil {
			return err
		}
		if err := r.fatalErr(); err != nil {
			return err
		}
	}
	return nil
}

// uncaughtHook offers an uncaught exception (or, inPromise, an unhandled
// rejection) to process's listeners. handled says one took it; err is an
// exception the listener threw, which ends the run.
func (r *run) uncaughtHook(v goja.Value, inPromise bool) (handled bool, err error) {
	h := r.procHooks
	if h == nil || h.uncaught == nil || r.inUncaught {
		return false, nil
	}
	origin := "uncaughtException"
	if inPromise {
		origin = "unhandledRejection"
	}
	r.inUncaught = true
	defer func() { r.inUncaught = false }()
	var res goja.Value
	e := r.enter(func() error {
		var err error
		res, err = h.uncaught(goja.Undefined(), v, r.rt.ToValue(origin))
		return err
	})
	if e != nil {
		return true, r.check(e) // reported as uncaught, not offered again
	}
	return res.ToBoolean(), nil
}
