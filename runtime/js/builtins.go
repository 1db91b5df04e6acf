package js

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dop251/goja"

	"github.com/nookdev/nook/runtime/host"
)

// Built-ins that recurse on the Go stack once per level of the value they
// walk, or whose work grows with their input inside one native call (which
// goja cannot interrupt), are replaced on every run by natives that bound
// them (whatever the program's text mentions):
//
//   - JSON.stringify serialises through an internal replacer that tracks
//     the nesting (a catchable RangeError past MaxNestingDepth), estimates
//     the output's size (past MaxAllocBytes the run stops, as for the
//     other allocation guards) and, every stringifyCheckEvery values, sees
//     whether the run was stopped, so a huge serialisation ends with its
//     run. A replacer array is applied by the internal replacer (a copy of
//     each object with the listed keys, in the list's order).
//   - Array.prototype.join (which String(array) and Array.prototype.
//     toString reach) counts how deeply it is nested in itself: a nested
//     array's string conversion past MaxNestingDepth is a catchable
//     RangeError. An array-like of more elements than MaxAllocBytes
//     allows (8 bytes an element), or whose separators alone would pass
//     it, stops the run.
//   - sort refuses an array-like of more elements than MaxAllocBytes/8.
//   - Array.prototype.flat flattens at most MaxNestingDepth levels
//     (flat(Infinity) included), over at most MaxAllocBytes/8 elements.
//   - the iterators of arrays, strings and typed arrays, which spreads and
//     Array.from drive in one native call (see guardIterator).
//   - String.prototype.replace and replaceAll with a string pattern and a
//     string replacement, when the program's text mentions "replace":
//     goja builds the whole result in one native call (60 MB of "x"
//     replaced by "yyyy" took 3 GB), so a result that would pass
//     maxAlloc stops the run first (see checkReplace).

// stringifyCheckEvery is how many values JSON.stringify serialises between
// two looks at whether the run was stopped.
const stringifyCheckEvery = 1024

func (r *run) guardBuiltins() {
	g := r.rt.GlobalObject()
	json := g.Get("JSON").(*goja.Object)
	stringify, _ := goja.AssertFunction(json.Get("stringify"))
	r.defineNative(json, "stringify", 3, func(call goja.FunctionCall) goja.Value {
		return r.stringify(stringify, call)
	})

	// The prototypes are reached from values, not from the constructors:
	// building Array and String would cost every run ~110 allocations.
	ap := r.rt.NewArray().Prototype()
	join, _ := goja.AssertFunction(ap.Get("join"))
	r.defineNative(ap, "join", 1, func(call goja.FunctionCall) goja.Value {
		return r.join(join, call)
	})
	// sort copies an array-like's elements into a Go slice first: a huge
	// length on a sparse array or a plain object allocated gigabytes in
	// one native call. (The methods that only loop over the length are
	// guarded when the program names them: guards.js guardMethod.)
	for _, name := range []string{"sort"} {
		orig, _ := goja.AssertFunction(ap.Get(name))
		length := int(ap.Get(name).(*goja.Object).Get("length").ToInteger())
		r.defineNative(ap, name, length, func(call goja.FunctionCall) goja.Value {
			r.checkElements(call.This)
			v, err := orig(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		})
	}
	r.guardIterator(ap, "an array", "values")
	r.guardIterator(r.rt.ToValue("").ToObject(r.rt).Prototype(), "a string", "")
	for _, f := range r.p.features {
		if strings.HasPrefix(f, "typed:") {
			r.guardTypedIterator()
			break
		}
	}
	for _, f := range r.p.features {
		if f == "guard:replace" {
			r.guardReplace()
		}
	}
	flat, _ := goja.AssertFunction(ap.Get("flat"))
	r.defineNative(ap, "flat", 0, func(call goja.FunctionCall) goja.Value {
		r.checkElements(call.This)
		depth := call.Argument(0)
		if !goja.IsUndefined(depth) {
			if d := depth.ToFloat(); d > float64(r.req.Limits.MaxNestingDepth) {
				depth = r.rt.ToValue(r.req.Limits.MaxNestingDepth)
			}
		}
		v, err := flat(call.This, depth)
		if err != nil {
			panic(err)
		}
		return v
	})
}

// guardIterator wraps proto[Symbol.iterator]: a spread ([...x]) or
// Array.from(x) makes one value per element inside one native call, so
// an array-like, string or typed array whose elements at 16 bytes each
// would pass MaxMemoryBytes stops the run before its iterator exists. A
// dense array that long could not exist within the limit; what this
// refuses is a sparse array or an array-like with a huge length, and
// strings and typed arrays of more than MaxMemoryBytes/16 elements (for-of
// over them too). alias names the method that is the same function
// (values).
func (r *run) guardIterator(proto *goja.Object, what, alias string) {
	sym := goja.SymIterator
	orig, ok := goja.AssertFunction(proto.GetSymbol(sym))
	if !ok {
		return
	}
	fn := r.rt.ToValue(func(call goja.FunctionCall) goja.Value {
		n := r.lengthOf(call.This)
		if s, ok := call.This.(goja.String); ok {
			n = float64(s.Length())
		}
		if max := float64(r.req.Limits.MaxMemoryBytes); n*16 > max {
			le := &host.LimitError{Limit: "MaxMemoryBytes", Max: int64(max),
				What: fmt.Sprintf("iterating %s of %.0f elements (%.0f bytes at 16 an element)", what, n, n*16)}
			r.fail(le)
			panic(r.newError("RangeError", le.Error()))
		}
		v, err := orig(call.This, call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}).(*goja.Object)
	name := "[Symbol.iterator]"
	if alias != "" {
		name = alias
		proto.DefineDataProperty(alias, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	// A built-in method's attributes: not enumerable (for-in over an
	// array must not list it), name and length read-only.
	fn.DefineDataProperty("name", r.rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	fn.DefineDataProperty("length", r.rt.ToValue(0), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	proto.DefineDataPropertySymbol(sym, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// guardTypedIterator guards the typed arrays' iterator, once. Building
// the typed arrays costs a run 170 allocations, so this waits until the
// program names a typed array (see features) or a native makes one (see
// builtin); a typed array reached only through a computed name is left
// unguarded (its elements are bounded by its size).
func (r *run) guardTypedIterator() {
	if r.typedGuarded {
		return
	}
	r.typedGuarded = true
	u8 := r.rt.GlobalObject().Get("Uint8Array").(*goja.Object)
	r.guardIterator(u8.Prototype().Get("prototype").(*goja.Object), "a typed array", "values")
}

// maxAlloc is the most one allocation guard lets a built-in create:
// MaxAllocBytes, or MaxMemoryBytes when that is smaller (one string
// bigger than the run's memory cannot fit in it, and goja builds it in a
// native call the memory watchdog cannot interrupt).
func (r *run) maxAlloc() int64 {
	l := r.req.Limits
	if l.MaxMemoryBytes > 0 && l.MaxMemoryBytes < l.MaxAllocBytes {
		return l.MaxMemoryBytes
	}
	return l.MaxAllocBytes
}

// allocLimit stops the run: what would allocate n bytes, past maxAlloc
// (the error names MaxAllocBytes, or MaxMemoryBytes when that is the
// smaller). It does not return.
func (r *run) allocLimit(what string, n float64) {
	name, max := "MaxAllocBytes", r.req.Limits.MaxAllocBytes
	if m := r.maxAlloc(); m < max {
		name, max = "MaxMemoryBytes", m
	}
	le := &host.LimitError{Limit: name, Max: max, What: fmt.Sprintf("%s of %.0f bytes", what, n)}
	r.fail(le)
	panic(r.newError("RangeError", le.Error()))
}

// lengthOf is ToLength(ToObject(v).length).
func (r *run) lengthOf(v goja.Value) float64 {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return 0
	}
	n := v.ToObject(r.rt).Get("length")
	if n == nil {
		return 0
	}
	f := n.ToFloat()
	if math.IsNaN(f) || f < 0 {
		return 0
	}
	return math.Trunc(f)
}

// checkElements stops the run when the array-like v has more elements
// than MaxAllocBytes allows (8 bytes an element): a built-in would visit
// each of them in one native call.
func (r *run) checkElements(v goja.Value) float64 {
	n := r.lengthOf(v)
	if n*8 > float64(r.maxAlloc()) {
		r.allocLimit(fmt.Sprintf("array of %.0f elements", n), n*8)
	}
	return n
}

func (r *run) join(join goja.Callable, call goja.FunctionCall) goja.Value {
	n := r.checkElements(call.This)
	sep := 1
	if s := call.Argument(0); !goja.IsUndefined(s) {
		sep = len(s.String())
	}
	if n > 1 && (n-1)*float64(sep) > float64(r.maxAlloc()) {
		r.allocLimit("string", (n-1)*float64(sep))
	}
	r.joinDepth++
	defer func() { r.joinDepth-- }()
	if r.joinDepth > r.req.Limits.MaxNestingDepth {
		panic(r.nestingError("an array converted to a string"))
	}
	v, err := join(call.This, call.Arguments...)
	if err != nil {
		panic(err)
	}
	return v
}

// stringifier is the state of one guarded JSON.stringify.
type stringifier struct {
	r      *run
	user   goja.Callable // the program's replacer function
	keys   []goja.Value  // the program's replacer array, as keys
	gap    int           // the indentation's width
	stack  []*goja.Object
	size   float64 // estimated output so far
	count  int
	budget float64
	max    int
}

func (r *run) stringify(orig goja.Callable, call goja.FunctionCall) goja.Value {
	s := &stringifier{r: r, budget: float64(r.maxAlloc()), max: r.req.Limits.MaxNestingDepth}
	if rep, ok := call.Argument(1).(*goja.Object); ok {
		if fn, ok := goja.AssertFunction(rep); ok {
			s.user = fn
		} else if r.isArray(rep) {
			s.keys = r.replacerKeys(rep)
		}
	}
	space := call.Argument(2)
	if o, ok := space.(*goja.Object); ok {
		switch o.ClassName() {
		case "Number":
			space = r.rt.ToValue(o.ToFloat())
		case "String":
			space = o.ToString()
		}
	}
	switch x := space.Export().(type) {
	case int64:
		s.gap = int(min(max(x, 0), 10))
	case float64:
		s.gap = int(min(max(x, 0), 10))
	case string:
		s.gap = min(len(x), 10)
	}
	v, err := orig(call.This, call.Argument(0), r.rt.ToValue(s.replace), space)
	if err != nil {
		panic(err)
	}
	return v
}

// replacerKeys turns a replacer array into its property list (strings and
// numbers, and String and Number objects, without repeats).
func (r *run) replacerKeys(rep *goja.Object) []goja.Value {
	n := int(r.checkElements(rep))
	seen := map[string]bool{}
	var keys []goja.Value
	for i := range n {
		v := rep.Get(strconv.Itoa(i))
		var name string
		switch x := v.(type) {
		case *goja.Object:
			if c := x.ClassName(); c != "Number" && c != "String" {
				continue
			}
			name = x.String()
		default:
			if v == nil {
				continue
			}
			switch v.Export().(type) {
			case string, int64, float64:
				name = v.String()
			default:
				continue
			}
		}
		if !seen[name] {
			seen[name] = true
			keys = append(keys, r.rt.ToValue(name))
		}
	}
	return keys
}

// replace is the internal replacer: JSON.stringify calls it with every
// value it serialises (after toJSON), and the object holding it as this.
func (s *stringifier) replace(call goja.FunctionCall) goja.Value {
	r := s.r
	holder, _ := call.This.(*goja.Object)
	key, v := call.Argument(0), call.Argument(1)
	if s.user != nil {
		var err error
		if v, err = s.user(call.This, key, v); err != nil {
			panic(err)
		}
	}
	if s.count++; s.count%stringifyCheckEvery == 0 {
		if err := r.fatalErr(); err != nil {
			panic(r.rt.NewGoError(err))
		}
	}
	// The values being serialised nest as the stack: the holder of
	// this value is on it (values come depth first).
	for len(s.stack) > 0 && s.stack[len(s.stack)-1] != holder {
		s.stack = s.stack[:len(s.stack)-1]
	}
	if len(s.stack) == 0 {
		s.stack = append(s.stack, holder)
	}
	depth := len(s.stack) - 1
	s.size += float64(jsonLen(key.String())+1+s.gap*depth+1) + 1
	switch x := v.(type) {
	case *goja.Object:
		if _, isFn := goja.AssertFunction(x); isFn {
			break
		}
		switch x.ClassName() {
		case "Number", "String", "Boolean", "BigInt":
			s.size += s.scalarLen(x)
		default:
			if s.keys != nil && !r.isArray(x) {
				x = s.pick(x)
				v = x
			}
			s.stack = append(s.stack, x)
			if depth+1 > s.max {
				panic(r.nestingError("a value given to JSON.stringify"))
			}
			s.size += 2
		}
	default:
		s.size += s.scalarLen(v)
	}
	if s.size > s.budget {
		r.allocLimit("JSON.stringify's output", s.size)
	}
	return v
}

// pick copies the replacer array's keys of o, in the array's order.
func (s *stringifier) pick(o *goja.Object) *goja.Object {
	out := s.r.rt.NewObject()
	for _, k := range s.keys {
		if v := o.Get(k.String()); v != nil {
			out.Set(k.String(), v)
		}
	}
	return out
}

// scalarLen is the length of a scalar's JSON text.
func (s *stringifier) scalarLen(v goja.Value) float64 {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return 4
	}
	switch x := v.Export().(type) {
	case string:
		return float64(jsonLen(x))
	case bool:
		return 5
	case int64:
		return float64(len(strconv.AppendInt(make([]byte, 0, 24), x, 10)))
	case float64:
		return float64(len(strconv.AppendFloat(make([]byte, 0, 32), x, 'g', -1, 64)))
	}
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "String" {
		return float64(jsonLen(o.String()))
	}
	return 24
}

// jsonLen is the length of s as a JSON string, quotes included.
func jsonLen(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
			n++
		case c < 0x20:
			n += 5
		}
	}
	return n
}

// guardReplace wraps String.prototype.replace and replaceAll with
// checkReplace.
func (r *run) guardReplace() {
	sp := r.rt.ToValue("").ToObject(r.rt).Prototype()
	for _, name := range []string{"replace", "replaceAll"} {
		orig, ok := goja.AssertFunction(sp.Get(name))
		if !ok {
			continue
		}
		all := name == "replaceAll"
		r.defineNative(sp, name, 2, func(call goja.FunctionCall) goja.Value {
			r.checkReplace(call, all)
			v, err := orig(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		})
	}
}

// checkReplace stops the run when replacing the string pattern in this
// string by the string replacement would pass maxAlloc: the result (what
// the replacement's patterns insert bounded: $& the match, $` and $' up
// to the whole string) plus goja's record of each match, about
// replaceMatchBytes (replaceAll of 60 million one-letter matches held
// 3 GB). A regular expression or a function is left to the memory
// watchdog.
func (r *run) checkReplace(call goja.FunctionCall, all bool) {
	s, ok1 := call.This.(goja.String)
	pat, ok2 := call.Argument(0).(goja.String)
	rep, ok3 := call.Argument(1).(goja.String)
	if !ok1 || !ok2 || !ok3 {
		return
	}
	ls, lp, lr := float64(s.Length()), float64(pat.Length()), float64(rep.Length())
	rs := rep.String()
	per := lr // what one match becomes, at most
	if strings.Contains(rs, "$`") || strings.Contains(rs, "$'") {
		per = lr + lr/2*ls // each two-character pattern inserts at most the string
	} else if strings.Contains(rs, "$&") {
		per = lr + lr/2*lp
	}
	limit := float64(r.maxAlloc())
	cost := func(n float64) float64 { return ls + n*(max(per-lp, 0)+replaceMatchBytes) }
	var n float64
	switch {
	case !all:
		n = 1
	case lp == 0:
		n = ls + 1
	default:
		if cost(ls/lp) <= limit {
			return // not even a match at every position would pass it
		}
		n = float64(strings.Count(s.String(), pat.String()))
	}
	if size := cost(n); size > limit {
		r.allocLimit(fmt.Sprintf("a replacement of %.0f matches (its result and a record of each match)", n), size)
	}
}

// replaceMatchBytes is what goja keeps of one match while it replaces (a
// slice of two indexes, in a slice that grows by doubling).
const replaceMatchBytes = 64
