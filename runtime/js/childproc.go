package js

import (
	"context"

	"github.com/dop251/goja"

	"github.com/nookdev/nook/runtime/host"
)

// The Go side of node:child_process (guest/js/child_process.js). A child
// process is a nested run that the runtime starts on one of the
// workspace's backends (runtime.KindExec: a command line on the shell,
// a program on this backend); the shim only shapes the calls and their
// results the way Node does. See RATIONALE.md "child_process".

// execSync performs a KindExec call on the loop goroutine (execSync,
// spawnSync). The run is not marked busy while the child runs: the memory
// watchdog blames what a nested run of this process allocates on that
// run, not on the parent waiting for it.
func (r *run) execSync(op string, args goja.Value) goja.Value {
	c, err := r.newCall(host.KindExec, op, args)
	if err != nil {
		panic(r.rt.NewTypeError(err.Error()))
	}
	r.busy.Store(false)
	res, err := r.hostCall(c)
	r.busy.Store(true)
	if err != nil {
		panic(r.throwable(err))
	}
	v, jerr := r.hostResult(res)
	if jerr != nil {
		panic(jerr)
	}
	return v
}

// execStart issues a KindExec call on a goroutine of its own (spawn,
// exec, execFile) and returns {promise, cancel}: the promise settles, in
// issue order like every asynchronous host call, with the call's result;
// cancel (ChildProcess.kill) cancels the call's context, which ends the
// nested run.
func (r *run) execStart(op string, args goja.Value) goja.Value {
	ctx, cancel := context.WithCancel(r.ctx)
	p := r.callAsyncCtx(ctx, cancel, host.KindExec, op, args)
	o := r.rt.NewObject()
	o.Set("promise", p)
	o.Set("cancel", func() { cancel() })
	return o
}
