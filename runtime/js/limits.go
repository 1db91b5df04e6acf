package js

import (
	"fmt"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"

	"github.com/nookdev/nook/runtime"
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
				le := &runtime.LimitError{Limit: "RegexpMatchTimeout", Max: RegexpMatchTimeout.Milliseconds(),
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

// The memory watchdog. goja cannot cap a runtime's memory, and Go only
// measures the whole process, so one goroutine samples the heap every
// watchdogTick while any run is active and charges each increase to the
// runs that executed JavaScript during that tick (split evenly), and
// shrinks every charge in proportion when the heap shrinks (a collection).
// A run whose charge passes its MaxMemoryBytes is interrupted with a
// *runtime.LimitError. A run waiting for timers or host calls is charged
// nothing, so a memory bomb stops while runs sharing the process go on.
// See RATIONALE.md for the reasoning and its limits.
const watchdogTick = 2 * time.Millisecond

type memState struct {
	charge      float64
	limit       float64
	interrupted bool // the run was interrupted for its memory
}

var watchdog struct {
	mu      sync.Mutex
	runs    map[*run]*memState
	running bool
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func heapBytes(s []metrics.Sample) float64 {
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return float64(s[0].Value.Uint64())
}

// watch registers r with the watchdog, starting it if needed; the
// returned func unregisters it.
func (r *run) watch() func() {
	watchdog.mu.Lock()
	defer watchdog.mu.Unlock()
	if watchdog.runs == nil {
		watchdog.runs = map[*run]*memState{}
	}
	watchdog.runs[r] = &memState{limit: float64(r.req.Limits.MaxMemoryBytes)}
	if !watchdog.running {
		watchdog.running = true
		go watchLoop()
	}
	return func() {
		watchdog.mu.Lock()
		delete(watchdog.runs, r)
		watchdog.mu.Unlock()
	}
}

func watchLoop() {
	s := []metrics.Sample{{Name: heapMetric}}
	prev := heapBytes(s)
	t := time.NewTicker(watchdogTick)
	defer t.Stop()
	for range t.C {
		h := heapBytes(s)
		watchdog.mu.Lock()
		if len(watchdog.runs) == 0 {
			watchdog.running = false
			watchdog.mu.Unlock()
			return
		}
		var active []*memState
		var worst *run
		for r, st := range watchdog.runs {
			if r.touched.Swap(false) || r.busy.Load() {
				active = append(active, st)
			}
		}
		switch {
		case h > prev && len(active) > 0:
			share := (h - prev) / float64(len(active))
			for _, st := range active {
				st.charge += share
			}
		case h < prev && prev > 0:
			for _, st := range watchdog.runs {
				st.charge *= h / prev
			}
		}
		// A run stays registered (and charged) after its interrupt until
		// its goroutine ends: one still inside a long native call keeps
		// the blame for what it allocates, and is interrupted again.
		var again []*run
		for r, st := range watchdog.runs {
			if st.charge <= st.limit {
				continue
			}
			if st.interrupted {
				again = append(again, r)
			} else if worst == nil || st.charge > watchdog.runs[worst].charge {
				worst = r
			}
		}
		var st *memState
		if worst != nil {
			st = watchdog.runs[worst]
			st.interrupted = true
		}
		watchdog.mu.Unlock()
		prev = h
		if worst != nil {
			worst.fail(&runtime.LimitError{Limit: "MaxMemoryBytes", Max: int64(st.limit),
				What: fmt.Sprintf("memory growth of about %d MiB", int64(st.charge)>>20)})
		}
		for _, r := range again {
			r.fail(nil)
		}
	}
}
