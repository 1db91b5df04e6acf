package js

import (
	"fmt"
	"sync"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"

	"github.com/nookdev/nook/internal/memwatch"
	"github.com/nookdev/nook/runtime/host"
)

// RegexpMatchTimeout bounds one regular-expression match that goja runs
// with its backtracking engine (regexp2: patterns with backreferences or
// lookaround). goja ignores interrupts inside a match, so this is what
// stops catastrophic backtracking; the run then fails with a
// *runtime.LimitError naming RegexpMatchTimeout.
const RegexpMatchTimeout = time.Second

var regexpOnce sync.Once

// setRegexpTimeout sets regexp2's process-wide default match timeout,
// which goja's compiled patterns take (goja offers no per-runtime
// setting). See RATIONALE.md.
func setRegexpTimeout() {
	regexpOnce.Do(func() {
		if regexp2.DefaultMatchTimeout > RegexpMatchTimeout {
			regexp2.DefaultMatchTimeout = RegexpMatchTimeout
		}
	})
}

// guardRegexp wraps RegExp.prototype.exec and test: goja reports a
// timed-out match as "no match", which would silently give a wrong
// answer; a no-match that took the whole timeout stops the run instead.
// (Changing exec makes goja route match/replace/split/search through it.)
func (r *run) guardRegexp() {
	proto := r.rt.GlobalObject().Get("RegExp").(*goja.Object).Get("prototype").(*goja.Object)
	for _, name := range []string{"exec", "test"} {
		orig, _ := goja.AssertFunction(proto.Get(name))
		name := name
		fn := r.rt.ToValue(func(call goja.FunctionCall) goja.Value {
			t0 := time.Now()
			v, err := orig(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			if (goja.IsNull(v) || v == goja.Value(nil) || !v.ToBoolean()) && time.Since(t0) >= RegexpMatchTimeout*9/10 {
				le := &host.LimitError{Limit: "RegexpMatchTimeout", Max: RegexpMatchTimeout.Milliseconds(),
					What: fmt.Sprintf("a regular expression match (%s) running %d ms", call.This.String(), time.Since(t0).Milliseconds())}
				r.fail(le)
				panic(r.newError("RangeError", le.Error()))
			}
			return v
		}).(*goja.Object)
		fn.DefineDataProperty("name", r.rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		proto.DefineDataProperty(name, fn, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
}

// watch registers r with the memory watchdog (internal/memwatch), which
// charges it with the heap's growth while it executes JavaScript and
// interrupts it with a *runtime.LimitError naming MaxMemoryBytes when its
// tree of runs passes its budget; the returned func unregisters it. A run
// waiting for timers or host calls is charged nothing.
func (r *run) watch() func() {
	m := memwatch.Watch(memwatch.Options{Tree: r.req.Tree, Limit: r.req.Limits.MaxMemoryBytes,
		Active: func() bool { return r.touched.Swap(false) || r.busy.Load() },
		Stop:   func(le *host.LimitError) { r.fail(le) }})
	r.mem = m
	return m.Done
}
