package js

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/require"

	"github.com/nookdev/nook/internal/memwatch"
	rthost "github.com/nookdev/nook/runtime/host"
)

// program is a prepared run: the compiled bundle and the request.
type program struct {
	b        *Backend
	code     *goja.Program
	src      string   // the bundle code was compiled from
	features []string // what the prelude installs up front (see features)
	format   string   // the entry's module format: "esm", "cjs" or "" (a plain script)
	req      *rthost.Request
}

// run is the state of one execution of a program. Fields below the
// mutex-free line are touched only by the loop goroutine.
type run struct {
	p    *program
	req  *rthost.Request
	ctx  context.Context
	host rthost.Host

	over    atomic.Bool   // Run has returned: no more host traffic
	stopped chan struct{} // closed when Run returns
	wake    chan struct{} // pokes the loop when a fatal error is set
	busy    atomic.Bool   // the loop goroutine is executing JavaScript
	touched atomic.Bool   // JavaScript ran since the watchdog last looked
	mem     *memwatch.Run // the run's registration with the memory watchdog
	start   time.Time     // host clock at start (performance.now)

	fatalMu sync.Mutex
	fatal   error
	vm      *goja.Runtime // rt, once setup made it (under fatalMu)

	rt *goja.Runtime
	loop
	rejected []*goja.Promise
	awaited  map[*goja.Promise]bool
	modules  map[string]goja.Value // require cache
	shimHost *goja.Object          // the host object internal shims get
	ns       goja.Value            // the entry module's namespace
	exitCode int                   // process.exitCode at the end, or process.exit's code
	exited   bool

	nodeRequire *require.RequireModule
	makeGlobal  goja.Callable // the prelude's factory of lazy globals
	shimRequire goja.Value    // see shimRequireFn
	fnInspect   goja.Callable
	reported    bool // a run-ending error is on stderr already

	parsers      parserGuards // see guardCtorsFor
	joinDepth    int          // Array.prototype.join calls in progress (see guardBuiltins)
	typedGuarded bool         // see guardTypedIterator
	objectProto  *goja.Object
	builtins     map[string]goja.Value // see builtin
	process      *goja.Object
	procHooks    *processHooks // set when process is built (see process.go)
	inUncaught   bool          // an uncaughtException listener is running
	ticksPending bool          // process.nextTick queued callbacks (see runTicks)
	bufferProto  *goja.Object  // node:buffer's Buffer.prototype (see newBuffer)
}

// exitRequest is the fatal "error" of process.exit.
type exitRequest struct{ code int }

func (e *exitRequest) Error() string { return fmt.Sprintf("process.exit(%d)", e.code) }

// uncaughtError is a JavaScript exception nothing caught, already
// reported on stderr.
type uncaughtError struct{ msg string }

func (e *uncaughtError) Error() string { return e.msg }

// Run executes the program in a fresh goja runtime on a goroutine of its
// own. It returns when the program ends, or promptly once ctx is done: an
// interrupted program may still unwind in the background, but it can no
// longer reach the host.
func (p *program) Run(ctx context.Context, host rthost.Host) rthost.Exit {
	r := &run{
		p: p, req: p.req, ctx: ctx, host: host,
		stopped: make(chan struct{}),
		wake:    make(chan struct{}, 1),
		loop:    newLoop(),
		awaited: map[*goja.Promise]bool{},
		modules: map[string]goja.Value{},
	}
	done := make(chan rthost.Exit, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- r.finish(fmt.Errorf("js: internal error: %v", v))
			}
		}()
		done <- r.main()
	}()
	defer func() {
		r.over.Store(true)
		close(r.stopped)
	}()
	select {
	case ex := <-done:
		return ex
	case <-ctx.Done():
	}
	r.fail(ctx.Err())
	select {
	case ex := <-done:
		return ex
	case <-time.After(100 * time.Millisecond):
		return rthost.Exit{Code: 1, Err: context.Cause(ctx)}
	}
}

// fail sets the run's fatal error (the first one wins) and interrupts the
// runtime (again, with the fatal error, if err is nil). It may be called
// from any goroutine. It returns the fatal error.
func (r *run) fail(err error) error {
	r.fatalMu.Lock()
	if r.fatal == nil && err != nil {
		r.fatal = err
	}
	err = r.fatal
	rt := r.vm // published by setup under fatalMu: fail may race with it
	r.fatalMu.Unlock()
	if err == nil {
		return nil
	}
	if rt != nil {
		rt.Interrupt(err)
	}
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return err
}

func (r *run) fatalErr() error {
	r.fatalMu.Lock()
	defer r.fatalMu.Unlock()
	return r.fatal
}

// enter runs f, which executes JavaScript, marked busy for the memory
// watchdog.
func (r *run) enter(f func() error) error {
	r.busy.Store(true)
	r.touched.Store(true)
	defer r.busy.Store(false)
	return f()
}

// check turns an error from goja into the run's fatal error: an
// interrupt becomes its cause, a stack overflow MaxStackDepth, and an
// exception an uncaught error (reported on stderr).
func (r *run) check(err error) error {
	if err == nil {
		return nil
	}
	if f := r.fatalErr(); f != nil {
		return f
	}
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if e, ok := ie.Value().(error); ok {
			return r.fail(e)
		}
		return r.fail(err)
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		max := r.req.Limits.MaxStackDepth
		return r.fail(&rthost.LimitError{Limit: "MaxStackDepth", Max: int64(max),
			What: fmt.Sprintf("a call stack deeper than %d frames", max)})
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return r.uncaught(ex.Value(), false)
	}
	return r.fail(err)
}

// main is the loop goroutine: set up, evaluate, call the default export,
// drain the loop, and say how the program ended.
func (r *run) main() rthost.Exit {
	defer r.watch()()
	if err := r.setup(); err != nil {
		return r.finish(err)
	}
	var top goja.Value
	err := r.enter(func() error {
		fn, err := r.rt.RunProgram(r.p.code)
		if err != nil {
			return err
		}
		wrapper, ok := goja.AssertFunction(fn)
		if !ok {
			return errors.New("js: the bundle is not a function")
		}
		req := r.rt.ToValue(r.require)
		top, err = wrapper(goja.Undefined(), req, req, r.rt.ToValue(r.mainHook), r.importMeta())
		return err
	})
	if err != nil {
		if err := r.check(err); err != nil {
			return r.finish(err)
		}
		top = nil
	}
	if _, err := r.await(top); err != nil {
		return r.finish(err)
	}
	value, err := r.callDefault()
	if err != nil {
		return r.finish(err)
	}
	var out json.RawMessage
	if value != nil {
		out, err = r.encodeResult(value, r.req.Limits.MaxResultBytes)
		if err != nil {
			return r.finish(r.report(err))
		}
	}
	if err := r.drain(); err != nil {
		return r.finish(err)
	}
	ex := r.finish(nil)
	if ex.Code == 0 {
		ex.Value = out
	}
	return ex
}

// callDefault calls the entry's default export with the input and awaits
// its result; a default export that is not a function is the value. A
// module without one has no value (nil). A CommonJS entry's default is its
// module.exports; a plain script (no import, export, module or require)
// has no value.
func (r *run) callDefault() (goja.Value, error) {
	ns, _ := r.ns.(*goja.Object)
	if ns == nil || r.p.format == "" {
		return nil, nil
	}
	def := ns.Get("default")
	if def == nil || goja.IsUndefined(def) {
		return nil, nil
	}
	fn, ok := goja.AssertFunction(def)
	if !ok {
		return def, nil
	}
	var input goja.Value = goja.Null()
	if len(r.req.Input) > 0 {
		if err := rthost.CheckJSONNesting("the input", r.req.Input, r.req.Limits.MaxNestingDepth); err != nil {
			return nil, r.report(err)
		}
		var x any
		if err := json.Unmarshal(r.req.Input, &x); err != nil {
			return nil, r.report(fmt.Errorf("the input is not valid JSON: %v", err))
		}
		input = r.toJS(x)
	}
	var res goja.Value
	err := r.enter(func() error {
		var err error
		res, err = fn(goja.Undefined(), input)
		return err
	})
	if err != nil {
		return nil, r.check(err)
	}
	return r.await(res)
}

// await runs the loop until v, if it is a promise, settles, and returns
// its value; a rejection is an uncaught error.
func (r *run) await(v goja.Value) (goja.Value, error) {
	p, ok := v.Export().(*goja.Promise)
	if !ok {
		return v, nil
	}
	r.awaited[p] = true
	// A module that threw at the top fails at once, as in Node: its
	// nextTick queue does not run.
	if p.State() == goja.PromiseStateRejected {
		return nil, r.uncaught(p.Result(), false)
	}
	err := r.runLoop(func() bool { return p.State() != goja.PromiseStatePending })
	if err != nil {
		if errors.Is(err, errNeverSettles) {
			return nil, r.report(err)
		}
		return nil, err
	}
	if p.State() == goja.PromiseStateRejected {
		return nil, r.uncaught(p.Result(), false)
	}
	return p.Result(), nil
}

// mainHook receives the entry module's namespace once it is evaluated.
func (r *run) mainHook(ns goja.Value) { r.ns = ns }

// importMeta is what import.meta stands for: the entry's URL and paths.
func (r *run) importMeta() goja.Value {
	o := r.rt.NewObject()
	file := r.entryPath()
	o.Set("url", "file://"+file)
	o.Set("filename", file)
	o.Set("dirname", dirOf(file))
	return o
}

func (r *run) entryPath() string { return entryFile(r.req) }

// report writes a run-ending error to stderr and makes it the fatal
// error.
func (r *run) report(err error) error {
	if f := r.fatalErr(); f != nil {
		return f
	}
	r.writeErr(err.Error() + "\n")
	r.reported = true
	return r.fail(err)
}

// writeErr writes to stderr, ignoring failures (the run is ending).
func (r *run) writeErr(s string) {
	if r.over.Load() {
		return
	}
	_ = r.host.Write(rthost.Stderr, []byte(s))
}

// finish turns how the main goroutine ended into the run's Exit. A limit
// error or a failure that nothing reported yet is written to stderr.
func (r *run) finish(err error) rthost.Exit {
	if f := r.fatalErr(); f != nil {
		err = f
	}
	if r.over.Load() || r.ctx.Err() != nil {
		return rthost.Exit{Code: 1, Err: context.Cause(r.ctx)}
	}
	if err == nil {
		code := r.processExitCode()
		if code != 0 {
			return rthost.Exit{Code: code, Err: fmt.Errorf("the program set process.exitCode = %d", code)}
		}
		return rthost.Exit{}
	}
	var ex *exitRequest
	if errors.As(err, &ex) {
		if ex.code == 0 {
			return rthost.Exit{}
		}
		return rthost.Exit{Code: ex.code, Err: fmt.Errorf("the program called process.exit(%d)", ex.code)}
	}
	var le *rthost.LimitError
	if errors.As(err, &le) {
		if !r.reported {
			r.writeErr("Error: " + le.Error() + "\n")
		}
		return rthost.Exit{Code: 1, Err: le}
	}
	var ue *uncaughtError
	if !errors.As(err, &ue) && !r.reported {
		r.writeErr(err.Error() + "\n")
	}
	return rthost.Exit{Code: 1, Err: err}
}

// processExitCode reads process.exitCode.
func (r *run) processExitCode() int {
	if r.process == nil {
		return 0
	}
	v := r.process.Get("exitCode")
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return 0
	}
	return int(v.ToInteger())
}
