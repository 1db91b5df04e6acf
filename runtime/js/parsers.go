package js

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
	"sync"

	"github.com/dop251/goja"

	guestjs "github.com/nookdev/nook/guest/js"
	"github.com/nookdev/nook/runtime/host"
)

// The parsers a program can reach at run time — JSON.parse, eval, and the
// Function, AsyncFunction and GeneratorFunction constructors — recurse on
// the Go stack, so a deep enough input would be a fatal stack overflow.
// guardParsers replaces them, on every run (whatever the program's text
// mentions: a computed name reaches them too), with natives that measure
// the input first (runtime.JSONNestingOffset, sourceNesting) and throw a
// catchable SyntaxError naming MaxNestingDepth when it is too deep.
//
// eval is replaced by a function, so every eval is an indirect eval: it
// runs in the global scope and cannot see the caller's local variables.
// goja recognises a direct eval by the identity of the original function,
// and a direct eval bypasses any wrapper, so it cannot be both direct and
// checked.
func (r *run) guardParsers() {
	rt := r.rt
	g := rt.GlobalObject()
	max := r.req.Limits.MaxNestingDepth

	json := g.Get("JSON").(*goja.Object)
	parse, _ := goja.AssertFunction(json.Get("parse"))
	r.defineNative(json, "parse", 2, func(call goja.FunctionCall) goja.Value {
		text := call.Argument(0).ToString()
		if err := host.CheckJSONNesting("JSON text", text.String(), max); err != nil {
			panic(r.newError("SyntaxError", err.Error()))
		}
		args := append([]goja.Value{text}, call.Arguments[min(1, len(call.Arguments)):]...)
		v, err := parse(call.This, args...)
		if err != nil {
			panic(err)
		}
		return v
	})

	eval, _ := goja.AssertFunction(g.Get("eval"))
	r.defineNative(g, "eval", 1, func(call goja.FunctionCall) goja.Value {
		if src, ok := call.Argument(0).(goja.String); ok {
			text := src.String()
			if err := checkSource("eval source", text, max); err != nil {
				panic(r.newError("SyntaxError", err.Error()))
			}
			r.guardCtorsFor(text)
			if fixed := fixEvalSource(text); fixed != text {
				args := append([]goja.Value{r.rt.ToValue(fixed)}, call.Arguments[1:]...)
				call.Arguments = args
			}
		}
		v, err := eval(goja.Undefined(), call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	})

	r.guardFunctionCtor(g.Get("Function").(*goja.Object), "Function", "function")
	r.guardCtors(hasFeature(r.p.features, "ctor:async"), hasFeature(r.p.features, "ctor:generator"))
	r.guardBuiltins()
}

// parserGuards records which of the constructors reached through a
// function's prototype (AsyncFunction, GeneratorFunction) are guarded.
// Building them costs a run time even when it never makes such a function,
// so each is guarded only once code that could make one appears: the
// bundle, a shim, or a source given to eval or a Function constructor.
type parserGuards struct {
	async, generator bool
}

// generatorRE matches source that may define a generator (a function*, or
// a *method in a class or an object literal); it matches more than that.
var generatorRE = regexp.MustCompile(`function\s*\*|[{,;}]\s*(?:static\s+|async\s+)*\*\s*[\w$\["'#]|yield`)

// guardCtorsFor guards AsyncFunction and GeneratorFunction if code in src
// could make an async function or a generator and they are not guarded
// yet.
func (r *run) guardCtorsFor(src string) {
	r.guardCtors(ctorNeeds(src))
}

func hasFeature(features []string, f string) bool {
	for _, x := range features {
		if x == f {
			return true
		}
	}
	return false
}

// ctorNeeds says whether src could make an async function or a generator.
func ctorNeeds(src string) (async, generator bool) {
	return strings.Contains(src, "async"), generatorRE.MatchString(src)
}

func (r *run) guardCtors(async, generator bool) {
	pg := &r.parsers
	if async && !pg.async {
		pg.async = true
		r.guardFunctionCtor(r.ctorOf(asyncCtorProgram()), "AsyncFunction", "async function")
	}
	if generator && !pg.generator {
		pg.generator = true
		r.guardFunctionCtor(r.ctorOf(generatorCtorProgram()), "GeneratorFunction", "function*")
	}
}

// shimNeeds is ctorNeeds of each shim file, computed once per process.
var shimNeeds sync.Map // file name → [2]bool

func (r *run) guardCtorsForShim(file string) {
	v, ok := shimNeeds.Load(file)
	if !ok {
		src, _ := fs.ReadFile(guestjs.FS, file)
		a, g := ctorNeeds(string(src))
		v, _ = shimNeeds.LoadOrStore(file, [2]bool{a, g})
	}
	n := v.([2]bool)
	r.guardCtors(n[0], n[1])
}

func (r *run) ctorOf(p *goja.Program) *goja.Object {
	v, err := r.rt.RunProgram(p)
	if err != nil {
		panic(err)
	}
	return v.(*goja.Object)
}

var asyncCtorProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("nook:async", "(async function () {}).constructor", true)
})

var generatorCtorProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("nook:generator", "(function* () {}).constructor", true)
})

// guardFunctionCtor replaces the constructor F (Function, or one reached
// through a prototype) with one that checks the source it would compile:
// goja joins the parameters and the body into
// "(<kw> anonymous(<params>\n) {\n<body>\n})", so that is what is measured.
// The replacement shares F's prototype, so instanceof and .constructor
// keep working.
func (r *run) guardFunctionCtor(F *goja.Object, name, kw string) {
	rt := r.rt
	max := r.req.Limits.MaxNestingDepth
	W := rt.ToValue(func(call goja.ConstructorCall) *goja.Object {
		args := make([]goja.Value, len(call.Arguments))
		var src strings.Builder
		src.WriteString("(" + kw + " anonymous(")
		for i, a := range call.Arguments {
			s := a.ToString()
			args[i] = s
			if i == len(call.Arguments)-1 {
				src.WriteString("\n) {\n")
			} else if i > 0 {
				src.WriteByte(',')
			}
			src.WriteString(s.String())
		}
		src.WriteString("\n})")
		text := src.String()
		if err := checkSource(name+" source", text, max); err != nil {
			panic(r.newError("SyntaxError", err.Error()))
		}
		r.guardCtorsFor(text)
		if n := len(args); n > 0 {
			prefix := len("(" + kw + " anonymous(")
			parts := make([]string, n-1)
			for i := range parts {
				parts[i] = args[i].String()
			}
			params := strings.Join(parts, ",")
			p, b := fixFunctionSource(text, prefix, params, args[n-1].String())
			if b != args[n-1].String() || p != params {
				if n > 1 {
					args = []goja.Value{rt.ToValue(p), rt.ToValue(b)}
				} else {
					args = []goja.Value{rt.ToValue(b)}
				}
			}
		}
		fn, err := rt.New(F, args...)
		if err != nil {
			panic(err)
		}
		return fn
	}).(*goja.Object)
	proto := F.Get("prototype").(*goja.Object)
	W.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	W.DefineDataProperty("name", rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	W.DefineDataProperty("length", rt.ToValue(1), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	proto.DefineDataProperty("constructor", W, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	if name == "Function" {
		rt.GlobalObject().DefineDataProperty("Function", W, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
}

// defineNative sets o[name] to the native f, non-enumerable like a
// built-in, with the built-in's name and length.
func (r *run) defineNative(o *goja.Object, name string, length int, f func(goja.FunctionCall) goja.Value) {
	// The attributes of a built-in method: name and length read-only, the
	// method writable and configurable, none of them enumerable.
	fn := r.rt.ToValue(f).(*goja.Object)
	fn.DefineDataProperty("name", r.rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	fn.DefineDataProperty("length", r.rt.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	o.DefineDataProperty(name, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// nestingError is the RangeError for a value nested deeper than
// MaxNestingDepth (what: "a value to structuredClone").
func (r *run) nestingError(what string) *goja.Object {
	max := r.req.Limits.MaxNestingDepth
	le := &host.LimitError{Limit: "MaxNestingDepth", Max: int64(max),
		What: fmt.Sprintf("%s nested deeper than %d levels", what, max)}
	return r.newError("RangeError", le.Error())
}

// fitsNesting reports whether the plain Go value x (a host call's result,
// converted to JavaScript by a recursive toJS) nests at most room levels.
// It stops at room, so a cyclic map or slice is refused, not followed.
func fitsNesting(x any, room int) bool {
	switch v := x.(type) {
	case []any:
		if room == 0 {
			return false
		}
		for _, e := range v {
			if !fitsNesting(e, room-1) {
				return false
			}
		}
	case map[string]any:
		if room == 0 {
			return false
		}
		for _, e := range v {
			if !fitsNesting(e, room-1) {
				return false
			}
		}
	case json.RawMessage:
		return host.JSONNestingOffset(v, room) < 0
	}
	return true
}

// hostResult converts a host call's result for the program, refusing one
// nested deeper than MaxNestingDepth with a RangeError the program can
// catch.
func (r *run) hostResult(res any) (goja.Value, *goja.Object) {
	if !fitsNesting(res, r.req.Limits.MaxNestingDepth) {
		return nil, r.nestingError("a host call's result")
	}
	return r.toJS(res), nil
}
