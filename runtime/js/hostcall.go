package js

import (
	"context"
	"errors"
	"fmt"

	"github.com/dop251/goja"

	"github.com/nookdev/nook/runtime/host"
)

// errRunOver is what a host call made after the run returned gets: a
// program interrupted by its context may still be unwinding, and must
// not reach its host any more.
var errRunOver = errors.New("the run is over")

// hostCall performs one call through the host, unless the run is over.
func (r *run) hostCall(c *host.Call) (any, error) {
	return r.hostCallCtx(r.ctx, c)
}

// hostCallCtx is hostCall under ctx, which is r.ctx or one derived from
// it (a child process's call, which kill() cancels).
func (r *run) hostCallCtx(ctx context.Context, c *host.Call) (any, error) {
	if r.over.Load() {
		return nil, errRunOver
	}
	return r.host.Call(ctx, c)
}

// callSync performs a host call on the loop goroutine and returns its
// converted result; a failed call throws. A limit error stops the run.
func (r *run) callSync(kind host.CallKind, op string, args goja.Value) goja.Value {
	c, err := r.newCall(kind, op, args)
	if err != nil {
		panic(r.rt.NewTypeError(err.Error()))
	}
	if kind == host.KindFS && r.lastFS != nil {
		// Filesystem effects happen in issue order: wait for the
		// asynchronous calls issued before this one.
		select {
		case <-r.lastFS:
		case <-r.ctx.Done():
		}
	}
	res, err := r.hostCall(c)
	if err != nil {
		panic(r.throwable(err))
	}
	v, jerr := r.hostResult(res)
	if jerr != nil {
		panic(jerr)
	}
	return v
}

// callAsync starts a host call on a goroutine of its own and returns a
// promise that settles, on the loop, in the order the calls were issued.
func (r *run) callAsync(kind host.CallKind, op string, args goja.Value) goja.Value {
	return r.callAsyncCtx(r.ctx, nil, kind, op, args)
}

// callAsyncCtx is callAsync under ctx (see hostCallCtx); release, when
// set, is called once the call returned.
func (r *run) callAsyncCtx(ctx context.Context, release func(), kind host.CallKind, op string, args goja.Value) goja.Value {
	p, resolve, reject := r.rt.NewPromise()
	r.startCall(ctx, release, kind, op, args, func(v goja.Value, jerr goja.Value) error {
		if jerr != nil {
			return reject(jerr)
		}
		return resolve(v)
	})
	return r.rt.ToValue(p)
}

// callAsyncCb is callAsync without a promise: cb(err, value) is called on
// the loop when the call completes (in issue order, as the promises
// settle). A pending call then holds no promise and no resolving
// functions, a few KB of goja objects less: node:fs's callback forms use
// it, so that 10,000 writes in flight at once fit in MaxMemoryBytes. An
// exception thrown by cb is an uncaught exception, as a throwing callback
// is in Node.
func (r *run) callAsyncCb(kind host.CallKind, op string, args goja.Value, cb goja.Value) {
	f, ok := goja.AssertFunction(cb)
	if !ok {
		panic(r.rt.NewTypeError("the callback of a host call must be a function"))
	}
	r.startCall(r.ctx, nil, kind, op, args, func(v goja.Value, jerr goja.Value) error {
		if jerr != nil {
			_, err := f(goja.Undefined(), jerr)
			return err
		}
		_, err := f(goja.Undefined(), goja.Null(), v)
		return err
	})
}

// startCall issues a host call under ctx and, when it completes, calls
// settle on the loop with its converted result or the error the code sees;
// release, when set, is called once the call returned.
func (r *run) startCall(ctx context.Context, release func(), kind host.CallKind, op string, args goja.Value, settle func(v, jerr goja.Value) error) {
	c, err := r.newCall(kind, op, args)
	if err != nil {
		if release != nil {
			release()
		}
		panic(r.rt.NewTypeError(err.Error()))
	}
	seq := r.nextSeq
	r.nextSeq++
	r.pending++
	// Filesystem calls are performed one at a time in issue order, so
	// their effects (two appends to one file) happen in the order the
	// program asked for them; other calls run concurrently.
	var prev <-chan struct{}
	var executed chan struct{}
	isFS := kind == host.KindFS
	if isFS {
		prev = r.lastFS
		executed = make(chan struct{})
		r.lastFS = executed
		r.fsIssued++
	}
	go func() {
		if prev != nil {
			select {
			case <-prev:
			case <-r.stopped:
			}
		}
		res, err, panicked := r.hostCallRecover(ctx, c)
		if release != nil {
			release()
		}
		if executed != nil {
			close(executed)
		}
		apply := func() error {
			if isFS {
				r.fsApplied++
			}
			if panicked != nil {
				return r.fail(panicked)
			}
			return r.enter(func() error {
				if err != nil {
					if le, ok := errors.AsType[*host.LimitError](err); ok {
						return r.fail(le)
					}
					return settle(nil, r.jsError(err))
				}
				v, jerr := r.hostResult(res)
				if jerr != nil {
					return settle(nil, jerr)
				}
				return settle(v, nil)
			})
		}
		select {
		case r.loop.done <- completion{seq: seq, apply: apply}:
		case <-r.stopped:
		}
	}()
}

// hostCallRecover is hostCall on a goroutine of the run's own: a panic in
// the host (the storage running out of memory, say) must not take the
// process down with it, so it ends the run as an internal error, as one in
// the loop goroutine does.
func (r *run) hostCallRecover(ctx context.Context, c *host.Call) (res any, err error, panicked error) {
	defer func() {
		if v := recover(); v != nil {
			panicked = fmt.Errorf("js: internal error: %v", v)
		}
	}()
	res, err = r.hostCallCtx(ctx, c)
	return res, err, nil
}

// newCall converts JavaScript arguments into a host call, numbered in the
// order the program issues calls (on the loop goroutine), which is how the
// journal matches a replayed call with the recorded one.
func (r *run) newCall(kind host.CallKind, op string, args goja.Value) (*host.Call, error) {
	a, err := r.toGo(args)
	if err != nil {
		return nil, err
	}
	if kind == host.KindModule {
		if a == nil {
			a = []any{}
		}
	}
	r.callSeq++
	return &host.Call{Kind: kind, Op: op, Args: a, Seq: r.callSeq}, nil
}

// throwable turns a host call's error into what the code sees thrown. A
// limit error, or the end of the run, is not for the code to catch: it
// stops the run, and the value thrown here only unwinds the native call.
func (r *run) throwable(err error) goja.Value {
	if le, ok := errors.AsType[*host.LimitError](err); ok {
		r.fail(le)
	} else if errors.Is(err, errRunOver) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		if r.ctx.Err() != nil {
			r.fail(r.ctx.Err())
		}
	}
	return r.jsError(err)
}

// errno is Node's (negative) errno for a POSIX code.
var errno = map[string]int{
	"EPERM": -1, "ENOENT": -2, "EBADF": -9, "EACCES": -13, "EEXIST": -17, "EXDEV": -18,
	"ENOTDIR": -20, "EISDIR": -21, "EINVAL": -22, "EMFILE": -24, "EFBIG": -27, "ENOSPC": -28,
	"EROFS": -30, "ENAMETOOLONG": -36, "ENOSYS": -38, "ENOTEMPTY": -39, "ELOOP": -40, "EIO": -5,
}

// jsError builds the Error object the code sees for a failed host call:
// a *runtime.CallError keeps its message and gets Node's code, errno,
// syscall, path and dest properties.
func (r *run) jsError(err error) *goja.Object {
	ce, ok := errors.AsType[*host.CallError](err)
	if !ok {
		return r.newError("Error", err.Error())
	}
	e := r.newError("Error", ce.Message)
	if ce.Code != "" {
		e.Set("code", ce.Code)
		if n, ok := errno[ce.Code]; ok {
			e.Set("errno", n)
		}
	}
	if ce.Syscall != "" {
		e.Set("syscall", ce.Syscall)
	}
	if ce.Path != "" {
		e.Set("path", ce.Path)
	}
	if ce.Dest != "" {
		e.Set("dest", ce.Dest)
	}
	return e
}

// newError creates an error of the named constructor (Error, TypeError,
// RangeError) with a message.
func (r *run) newError(ctor, msg string) *goja.Object {
	c, _ := r.builtin(ctor).(*goja.Object)
	if c == nil {
		c = r.builtin("Error").(*goja.Object)
	}
	o, err := r.rt.New(c, r.rt.ToValue(msg))
	if err != nil {
		return r.rt.NewGoError(errors.New(msg))
	}
	return o
}
