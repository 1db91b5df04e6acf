package js

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/dop251/goja"

	guestjs "github.com/nookdev/nook/guest/js"
	"github.com/nookdev/nook/runtime/host"
)

// Built-in modules. Most are JavaScript shims in guest/js, evaluated as
// (function (module, exports, require, host) { ... }) where host is the
// internal bridge (see shimHost); it is never reachable from user code.
// A few are built here from goja_nodejs or from globals.
var builtinFiles = map[string]string{
	"node:fs":                  "node_fs.js",
	"node:path":                "path.js",
	"node:path/posix":          "path.js",
	"node:path/win32":          "path.js",
	"node:console":             "console.js",
	"node:vm":                  "vm.js",
	"node:sys":                 "util.js",
	"node:_stream_readable":    "stream.js",
	"node:_stream_writable":    "stream.js",
	"node:_stream_duplex":      "stream.js",
	"node:_stream_transform":   "stream.js",
	"node:_stream_passthrough": "stream.js",
	"node:util":                "util.js",
	"node:events":              "events.js",
	"node:timers/promises":     "timers_promises.js",
	"node:crypto":              "crypto.js",
	"node:os":                  "os.js",
	"node:assert":              "assert.js",
	"node:assert/strict":       "assert.js",
	"node:url":                 "url.js",
	"node:buffer":              "buffer.js",
	"node:stream":              "stream.js",
	"node:stream/promises":     "stream_promises.js",
	"node:string_decoder":      "string_decoder.js",
	"node:worker_threads":      "worker_threads.js",
	"node:child_process":       "child_process.js",
	"node:test":                "node_test.js",
	"node:zlib":                "zlib.js",
	"node:readline":            "readline.js",
	"node:readline/promises":   "readline_promises.js",
	"node:module":              "module.js",
	"node:querystring":         "querystring.js",
	"node:stream/consumers":    "stream_consumers.js",
	"node:stream/web":          "stream_web.js",
}

// builtinAliases are the built-ins that are another's module object or
// one of its members: name → [module, member ("" for the module itself)].
var builtinAliases = map[string][2]string{
	"node:path/posix":          {"node:path", "posix"},
	"node:path/win32":          {"node:path", "win32"},
	"node:sys":                 {"node:util", ""},
	"node:_stream_readable":    {"node:stream", "Readable"},
	"node:_stream_writable":    {"node:stream", "Writable"},
	"node:_stream_duplex":      {"node:stream", "Duplex"},
	"node:_stream_transform":   {"node:stream", "Transform"},
	"node:_stream_passthrough": {"node:stream", "PassThrough"},
}

// builtinNative are the built-ins made in Go (see run.requireNative).
var builtinNative = []string{"node:process", "node:timers", "node:fs/promises", "node:util/types"}

// builtinName returns the canonical name ("node:fs") of a built-in module
// specifier ("fs" or "node:fs").
func builtinName(spec string) (string, bool) {
	name := spec
	if !strings.HasPrefix(name, "node:") {
		name = "node:" + name
	}
	if _, ok := builtinFiles[name]; ok {
		return name, true
	}
	for _, n := range builtinNative {
		if n == name {
			return name, true
		}
	}
	return "", false
}

// builtinNames lists the built-in modules by canonical name.
func builtinNames() []string {
	names := append([]string(nil), builtinNative...)
	for n := range builtinFiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// shims holds the compiled shim programs, shared by every run of the
// process (a *goja.Program is immutable).
var shims sync.Map // file name → *shimProgram

type shimProgram struct {
	once sync.Once
	prg  *goja.Program
	err  error
}

// shim returns the compiled shim file name.
func shim(name string) (*goja.Program, error) {
	v, _ := shims.LoadOrStore(name, &shimProgram{})
	sp := v.(*shimProgram)
	sp.once.Do(func() {
		src, err := fs.ReadFile(guestjs.FS, name)
		if err != nil {
			sp.err = err
			return
		}
		sp.prg, sp.err = compileFixed("nook:"+name, "(function (module, exports, require, host) {"+string(src)+"\n})", true)
	})
	return sp.prg, sp.err
}

// require is the program's require (and the target of lowered dynamic
// imports): built-ins and ws: host modules. Workspace files are bundled
// before the run, so a path here was not known then.
func (r *run) require(call goja.FunctionCall) goja.Value {
	spec := call.Argument(0).String()
	v, err := r.requireModule(spec)
	if err != nil {
		e := r.newError("Error", err.Error())
		e.Set("code", "MODULE_NOT_FOUND")
		panic(e)
	}
	return v
}

func (r *run) requireModule(spec string) (goja.Value, error) {
	if strings.HasPrefix(spec, "ws:") {
		return r.hostModule(spec)
	}
	name, ok := builtinName(spec)
	if !ok {
		if strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") {
			return nil, fmt.Errorf("cannot load module %q at run time: only imports written as string literals are bundled before the run", spec)
		}
		return nil, fmt.Errorf("cannot find module %q", spec)
	}
	if v, ok := r.modules[name]; ok {
		return v, nil
	}
	v, err := r.loadBuiltin(name)
	if err != nil {
		return nil, err
	}
	r.modules[name] = v
	return v, nil
}

func (r *run) loadBuiltin(name string) (goja.Value, error) {
	switch name {
	case "node:process":
		return r.rt.GlobalObject().Get("process"), nil
	case "node:timers":
		o := r.rt.NewObject()
		for _, n := range []string{"setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate"} {
			o.Set(n, r.rt.GlobalObject().Get(n))
		}
		p, err := r.requireModule("node:timers/promises")
		if err != nil {
			return nil, err
		}
		o.Set("promises", p)
		return o, nil
	case "node:util/types":
		u, err := r.requireModule("node:util")
		if err != nil {
			return nil, err
		}
		return u.(*goja.Object).Get("types"), nil
	case "node:fs/promises":
		f, err := r.requireModule("node:fs")
		if err != nil {
			return nil, err
		}
		return f.(*goja.Object).Get("promises"), nil
	}
	file := builtinFiles[name]
	// Aliases: the same object as the module they name a part of.
	if alias, ok := builtinAliases[name]; ok {
		m, err := r.requireModule(alias[0])
		if err != nil {
			return nil, err
		}
		if alias[1] == "" {
			return m, nil
		}
		return m.(*goja.Object).Get(alias[1]), nil
	}
	if name == "node:console" {
		return r.rt.GlobalObject().Get("console"), nil
	}
	if name == "node:assert/strict" {
		a, err := r.requireModule("node:assert")
		if err != nil {
			return nil, err
		}
		return a.(*goja.Object).Get("strict"), nil
	}
	return r.evalShim(name, file)
}

// evalShim evaluates a shim file and returns its module.exports.
func (r *run) evalShim(name, file string) (goja.Value, error) {
	prg, err := shim(file)
	if err != nil {
		return nil, fmt.Errorf("module %q is not available: %v", name, err)
	}
	r.guardCtorsForShim(file)
	module := r.rt.NewObject()
	exports := r.rt.NewObject()
	module.Set("exports", exports)
	fnv, err := r.rt.RunProgram(prg)
	if err != nil {
		return nil, err
	}
	fn, _ := goja.AssertFunction(fnv)
	if _, err := fn(goja.Undefined(), module, exports, r.shimRequireFn(), r.shimHost); err != nil {
		if isUncatchable(err) {
			panic(err)
		}
		return nil, fmt.Errorf("module %q failed to load: %v", name, err)
	}
	return module.Get("exports"), nil
}

// shimRequireFn is the require of the internal shims: the program's,
// plus the internal files ("nook:console.js"), which the program cannot
// load.
func (r *run) shimRequireFn() goja.Value {
	if r.shimRequire == nil {
		r.shimRequire = r.rt.ToValue(func(call goja.FunctionCall) goja.Value {
			spec := call.Argument(0).String()
			file, ok := strings.CutPrefix(spec, "nook:")
			if !ok {
				return r.require(call)
			}
			if v, ok := r.modules[spec]; ok {
				return v
			}
			v, err := r.evalShim(spec, file)
			if err != nil {
				if isUncatchable(err) {
					panic(err)
				}
				panic(r.newError("Error", err.Error()))
			}
			r.modules[spec] = v
			return v
		})
	}
	return r.shimRequire
}

// hostModule builds the object of a ws: module: one async function per
// function the request lists, each a KindModule host call.
func (r *run) hostModule(name string) (goja.Value, error) {
	if v, ok := r.modules[name]; ok {
		return v, nil
	}
	funcs, ok := r.req.Modules[name]
	if !ok {
		return nil, fmt.Errorf("unknown host module %q%s", name, available("host modules", hostNames(r.req.Modules)))
	}
	o := r.rt.NewObject()
	for _, f := range funcs {
		op := name + "/" + f
		o.Set(f, func(call goja.FunctionCall) goja.Value {
			args := r.rt.NewArray()
			for i, a := range call.Arguments {
				args.Set(fmt.Sprint(i), a)
			}
			return r.callAsync(host.KindModule, op, args)
		})
	}
	r.modules[name] = o
	return o, nil
}

func isUncatchable(err error) bool {
	switch err.(type) {
	case *goja.InterruptedError, *goja.StackOverflowError:
		return true
	}
	return false
}
