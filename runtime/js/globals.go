package js

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/require"
	_ "github.com/dop251/goja_nodejs/url" // registers the url core module

	"github.com/nookdev/nook/runtime/host"
)

// setup creates the run's goja runtime: determinism hooks, limits, the
// internal bridge and the globals the prelude builds on it.
func (r *run) setup() error {
	rt := goja.New()
	r.rt = rt
	// Publish the runtime to fail, which other goroutines call (the
	// run's context ending while it starts); a failure that came first
	// interrupts it at once.
	r.fatalMu.Lock()
	r.vm = rt
	fatal := r.fatal
	r.fatalMu.Unlock()
	if fatal != nil {
		rt.Interrupt(fatal)
	}
	r.start = r.host.Now()
	rt.SetTimeSource(r.host.Now)
	rt.SetRandSource(r.random)
	rt.SetMaxCallStackSize(r.req.Limits.MaxStackDepth)
	rt.SetPromiseRejectionTracker(r.trackRejection)

	g := rt.GlobalObject()
	r.objectProto = g.Get("Object").(*goja.Object).Get("prototype").(*goja.Object)
	r.builtins = map[string]goja.Value{}
	r.guardParsers()
	for _, f := range r.p.features {
		if f == "regexp" {
			r.guardRegexp()
		}
	}
	r.shimHost = r.newShimHost()

	prg, err := shim("prelude.js")
	if err != nil {
		return err
	}
	return r.check(r.enter(func() error {
		fnv, err := rt.RunProgram(prg)
		if err != nil {
			return err
		}
		fn, _ := goja.AssertFunction(fnv)
		module := rt.NewObject()
		module.Set("exports", rt.NewObject())
		if _, err := fn(goja.Undefined(), module, module.Get("exports"), r.shimRequireFn(), r.shimHost); err != nil {
			return err
		}
		make, ok := goja.AssertFunction(module.Get("exports"))
		if !ok {
			return errors.New("js: the prelude exports no factory")
		}
		r.makeGlobal = make
		for _, f := range r.p.features {
			if f == "regexp" || strings.HasPrefix(f, "ctor:") {
				continue
			}
			if _, err := make(goja.Undefined(), rt.ToValue(f)); err != nil {
				return err
			}
		}
		// Globals are built on first use: the global object's prototype
		// resolves their names (see lazyGlobals).
		proto := rt.NewDynamicObject(&lazyGlobals{r: r})
		proto.SetPrototype(r.objectProto)
		return g.SetPrototype(proto)
	}))
}

// vmContextName is the global binding through which node:vm's code sees
// its context object.
const vmContextName = "__nookVMContext"

// lazyNames are the globals the prelude builds on first use.
var lazyNames = map[string]bool{
	"setTimeout": true, "setInterval": true, "setImmediate": true, "clearTimeout": true, "clearInterval": true,
	"clearImmediate": true, "queueMicrotask": true, "console": true, "process": true, "TextEncoder": true,
	"TextDecoder": true, "btoa": true, "atob": true, "structuredClone": true, "crypto": true, "performance": true,
	"Buffer": true, "URL": true, "URLSearchParams": true, "EventTarget": true, "Event": true, "CustomEvent": true,
	"AbortController": true, "AbortSignal": true, "fetch": true, "Headers": true, "Response": true, "Request": true,
	"ReadableStream": true, "WritableStream": true, "TransformStream": true, "ReadableStreamDefaultReader": true,
	"WritableStreamDefaultWriter": true, "ByteLengthQueuingStrategy": true, "CountQueuingStrategy": true,
	"TextEncoderStream": true, "TextDecoderStream": true, "DOMException": true, "Blob": true, "File": true,
	"global": true,
}

// lazyGlobals is the prototype of the global object: a name in lazyNames
// that code reads (and the global object does not have yet) is built by
// the prelude's factory and defined on the global object, so the next
// read finds it there. A run pays only for the globals it touches.
type lazyGlobals struct{ r *run }

func (l *lazyGlobals) Get(key string) goja.Value {
	if !lazyNames[key] {
		return nil
	}
	r := l.r
	v, err := r.makeGlobal(goja.Undefined(), r.rt.ToValue(key))
	if err != nil {
		panic(err)
	}
	g := r.rt.GlobalObject()
	if err := g.DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		panic(err)
	}
	if key == "process" {
		r.process, _ = v.(*goja.Object)
	}
	return v
}

func (l *lazyGlobals) Has(key string) bool { return lazyNames[key] }

// Set defines an assigned lazy name on the global object itself.
func (l *lazyGlobals) Set(key string, v goja.Value) bool {
	return l.r.rt.GlobalObject().DefineDataProperty(key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE) == nil
}

func (l *lazyGlobals) Delete(string) bool { return true }
func (l *lazyGlobals) Keys() []string     { return nil }

// builtin returns a global built-in as it was before the program ran
// ("Error", "Uint8Array", "ArrayBuffer.isView"), looked up on first use.
func (r *run) builtin(name string) goja.Value {
	if v, ok := r.builtins[name]; ok {
		return v
	}
	obj, prop, _ := strings.Cut(name, ".")
	if obj != "Array" && strings.HasSuffix(obj, "Array") || obj == "ArrayBuffer" {
		r.guardTypedIterator() // a native is about to make a typed array
	}
	v := r.rt.GlobalObject().Get(obj)
	if prop != "" {
		v = v.(*goja.Object).Get(prop)
	}
	r.builtins[name] = v
	return v
}

// native returns a goja_nodejs core module's exports ("buffer", "url").
// goja_nodejs modules come through a registry of their own whose loader
// never reads a file; the global require it installs is removed at once.
func (r *run) native(name string) goja.Value {
	if r.nodeRequire == nil {
		reg := require.NewRegistry(require.WithLoader(func(string) ([]byte, error) {
			return nil, require.ModuleFileDoesNotExistError
		}))
		g := r.rt.GlobalObject()
		old := g.Get("require")
		r.nodeRequire = reg.Enable(r.rt)
		if old != nil {
			g.Set("require", old)
		} else {
			g.Delete("require")
		}
	}
	v, err := r.nodeRequire.Require(name)
	if err != nil {
		panic(err)
	}
	return v
}

// random is Math.random from the host's random bytes.
func (r *run) random() float64 {
	var b [8]byte
	r.host.Random(b[:])
	return float64(binary.LittleEndian.Uint64(b[:])>>11) / (1 << 53)
}

// trackRejection follows promises rejected with no handler; afterTask
// fails the run for those still unhandled when a macrotask ends.
func (r *run) trackRejection(p *goja.Promise, op goja.PromiseRejectionOperation) {
	switch op {
	case goja.PromiseRejectionReject:
		r.rejected = append(r.rejected, p)
	case goja.PromiseRejectionHandle:
		for i, q := range r.rejected {
			if q == p {
				r.rejected = append(r.rejected[:i], r.rejected[i+1:]...)
				break
			}
		}
	}
}

// newShimHost builds the internal bridge that the prelude and the
// built-in shims (node:fs among them) use. Everything on it takes and
// returns plain values.
func (r *run) newShimHost() *goja.Object {
	sh := &shimHost{r: r, vals: map[string]goja.Value{}, make: map[string]func() any{}}
	r.shimHostFuncs(sh)
	return r.rt.NewDynamicObject(sh)
}

// shimHost is the internal bridge as a dynamic object: each member is
// made the first time a shim reads it, so a run pays only for those it
// uses.
type shimHost struct {
	r    *run
	vals map[string]goja.Value
	make map[string]func() any
}

func (h *shimHost) Get(key string) goja.Value {
	if v, ok := h.vals[key]; ok {
		return v
	}
	f := h.make[key]
	if f == nil {
		return nil
	}
	v := h.r.rt.ToValue(f())
	h.vals[key] = v
	return v
}
func (h *shimHost) Set(string, goja.Value) bool { return false }
func (h *shimHost) Has(key string) bool         { return h.make[key] != nil }
func (h *shimHost) Delete(string) bool          { return false }
func (h *shimHost) Keys() []string              { return nil }

func (r *run) shimHostFuncs(h *shimHost) {
	rt := r.rt
	set := func(name string, v any) { h.make[name] = func() any { return v } }
	setf := func(name string, f func() any) { h.make[name] = f }
	kindOf := func(v goja.Value) host.CallKind { return host.CallKind(v.String()) }

	set("callSync", func(kind, op, args goja.Value) goja.Value { return r.callSync(kindOf(kind), op.String(), args) })
	set("call", func(kind, op, args goja.Value) goja.Value { return r.callAsync(kindOf(kind), op.String(), args) })
	set("execSync", func(op string, args goja.Value) goja.Value { return r.execSync(op, args) })
	set("execStart", func(op string, args goja.Value) goja.Value { return r.execStart(op, args) })
	set("callCb", func(kind, op, args, cb goja.Value) { r.callAsyncCb(kindOf(kind), op.String(), args, cb) })
	set("cwd", r.req.Cwd)
	set("root", r.p.b.opts.Root)
	set("access", r.p.b.opts.Access.String())
	set("entry", r.entryPath())
	set("fetchAllowed", r.req.Fetch)
	set("maxAlloc", float64(r.maxAlloc()))
	set("maxNesting", float64(r.req.Limits.MaxNestingDepth))
	set("nestingLimit", func(what string) { panic(r.nestingError(what)) })
	set("countSplit", func(s, sep string) int { return strings.Count(s, sep) + 1 })

	setf("env", func() any {
		env := rt.NewObject()
		for k, v := range r.req.Env {
			env.Set(k, v)
		}
		return env
	})
	setf("argv", func() any {
		// argv[0] is the executable, process.execPath, as in Node: spawning
		// it runs this backend again (see node:child_process).
		argv := []any{"/usr/local/bin/node", r.entryPath()}
		for _, a := range r.req.Args {
			argv = append(argv, a)
		}
		return rt.NewArray(argv...)
	})
	set("stdin", func() goja.Value { return r.newUint8Array(r.req.Stdin) })

	set("write", func(stream int, data goja.Value) {
		var p []byte
		if obj, ok := data.(*goja.Object); ok {
			if b, ok := r.bytesOf(obj); ok {
				p = b
			}
		}
		if p == nil {
			p = []byte(data.String())
		}
		r.write(host.Stream(stream), p)
	})
	set("now", func() float64 { return float64(r.host.Now().UnixNano()) / 1e6 })
	set("hrnow", func() float64 { return float64(r.host.Now().Sub(r.start).Nanoseconds()) })
	set("random", func(n int) goja.Value {
		if n < 0 || n > 65536 {
			panic(r.newError("RangeError", fmt.Sprintf("cannot fill %d random bytes (at most 65536)", n)))
		}
		b := make([]byte, n)
		r.host.Random(b)
		return r.newUint8Array(b)
	})
	set("digest", func(alg string, data goja.Value) goja.Value {
		h := newHash(alg)
		if h == nil {
			panic(r.newError("Error", fmt.Sprintf("Digest method not supported: %s", alg)))
		}
		h.Write(r.dataBytes(data))
		return r.newUint8Array(h.Sum(nil))
	})
	set("hashNew", func(alg string) goja.Value {
		hs := newHash(alg)
		if hs == nil {
			panic(r.newError("Error", fmt.Sprintf("Digest method not supported: %s", alg)))
		}
		return r.hashObject(alg, hs)
	})
	set("pbkdf2", func(alg string, password, salt goja.Value, iterations, keylen int) goja.Value {
		if keylen < 0 || int64(keylen) > r.req.Limits.MaxAllocBytes {
			panic(r.newError("RangeError", fmt.Sprintf("The value of \"keylen\" is out of range. It must be >= 0 and <= %d. Received %d", r.req.Limits.MaxAllocBytes, keylen)))
		}
		key, err := r.pbkdf2(alg, r.dataBytes(password), r.dataBytes(salt), iterations, keylen)
		if err != nil {
			e := r.newError("TypeError", err.Error())
			e.Set("code", "ERR_CRYPTO_INVALID_DIGEST")
			panic(e)
		}
		return r.newUint8Array(key)
	})
	set("hkdf", func(alg string, ikm, salt, info goja.Value, keylen int) goja.Value {
		if newHash(alg) == nil {
			e := r.newError("TypeError", "Invalid digest: "+alg)
			e.Set("code", "ERR_CRYPTO_INVALID_DIGEST")
			panic(e)
		}
		key, err := hkdf.Key(func() hash.Hash { return newHash(alg) }, r.dataBytes(ikm), r.dataBytes(salt), string(r.dataBytes(info)), keylen)
		if err != nil {
			e := r.newError("RangeError", "Invalid key length")
			e.Set("code", "ERR_CRYPTO_INVALID_KEYLEN")
			panic(e)
		}
		return r.newUint8Array(key)
	})
	// vmRun is node:vm's evaluation: code as a sloppy-mode script whose
	// completion value it returns; with a context object, inside a
	// with-scope over it (a global binding named vmContextName for the
	// time of the call). It runs under the run's interrupt and limits.
	set("vmRun", func(code string, ctx goja.Value, filename string) goja.Value {
		src := code
		if ctx != nil && !goja.IsUndefined(ctx) && !goja.IsNull(ctx) {
			g := r.rt.GlobalObject()
			if err := g.DefineDataProperty(vmContextName, ctx, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
				panic(err)
			}
			defer g.Delete(vmContextName)
			src = "with (" + vmContextName + ") {\n" + code + "\n}"
		}
		prg, err := goja.Compile(filename, src, false)
		if err != nil {
			panic(r.newError("SyntaxError", err.Error()))
		}
		v, err := r.rt.RunProgram(prg)
		if err != nil {
			if ex, ok := err.(*goja.Exception); ok {
				panic(ex)
			}
			panic(err)
		}
		return v
	})
	// vmCheck compiles code as vmRun would, throwing its SyntaxError
	// (new vm.Script compiles when made).
	set("vmCheck", func(code string, filename string) {
		if _, err := goja.Compile(filename, code, false); err != nil {
			panic(r.newError("SyntaxError", err.Error()))
		}
	})
	set("utf8Encode", func(s string) goja.Value { return r.newUint8Array([]byte(s)) })
	set("utf8Decode", func(data goja.Value, fatal bool) string {
		b := r.dataBytes(data)
		if fatal && !utf8.Valid(b) {
			panic(r.newError("TypeError", "The encoded data was not valid for encoding utf-8"))
		}
		return decodeUTF8(b)
	})
	set("timerStart", func(fn goja.Value, ms float64, repeat bool, self goja.Value) int64 {
		f, ok := goja.AssertFunction(fn)
		if !ok {
			panic(r.newError("TypeError", "The \"callback\" argument must be of type function"))
		}
		if math.IsNaN(ms) || ms < 1 {
			ms = 0
		}
		if ms > math.MaxInt32 {
			ms = 1
		}
		return r.addTimer(f, self, time.Duration(ms*float64(time.Millisecond)), repeat)
	})
	set("timerClear", func(id int64) { r.clearTimer(id) })
	set("tickPending", func() { r.ticksPending = true })
	// runTicks runs the nextTick queue now: a timer's callback ends with
	// it, so its ticks run before the microtasks it queued, as in Node.
	set("runTicks", func() {
		if !r.ticksPending || r.procHooks == nil || r.procHooks.ticks == nil {
			return
		}
		r.ticksPending = false
		if _, err := r.procHooks.ticks(goja.Undefined()); err != nil {
			panic(err)
		}
	})
	set("timerRef", func(id int64, ref bool) { r.refTimer(id, ref) })
	set("exit", func(code goja.Value) {
		c := 0
		if code != nil && !goja.IsUndefined(code) && !goja.IsNull(code) {
			c = int(code.ToInteger())
		} else {
			c = r.processExitCode()
		}
		r.fail(&exitRequest{code: c})
		panic(rt.NewGoError(errors.New("process.exit")))
	})
	set("allocLimit", func(what string, n float64) { r.allocLimit(what, n) })
	set("userFrames", func(stack string) string { return r.userFrames(stack) })
	set("cleanStack", func(stack string) string {
		head, _, _ := strings.Cut(stack, "\n\tat ")
		return head + r.userFrames(stack)
	})
	set("setInspect", func(fn goja.Value) { r.fnInspect, _ = goja.AssertFunction(fn) })
	set("setProcessHooks", func(hooks *goja.Object) { r.setProcessHooks(hooks) })
	r.zlibFuncs(set)
	setf("builtinModules", func() any {
		var names []any
		for _, n := range builtinNames() {
			names = append(names, strings.TrimPrefix(n, "node:"))
		}
		return rt.NewArray(names...)
	})
	set("native", func(name string) goja.Value {
		switch name {
		case "url":
			return r.native(name)
		}
		panic(r.newError("Error", "no native module "+name))
	})
	// promiseState tells util.inspect a promise's state and result
	// (JavaScript cannot see them without awaiting).
	set("promiseState", func(v goja.Value) goja.Value {
		p, ok := v.Export().(*goja.Promise)
		if !ok {
			return rt.NewArray("pending", goja.Undefined())
		}
		switch p.State() {
		case goja.PromiseStateFulfilled:
			return rt.NewArray("fulfilled", p.Result())
		case goja.PromiseStateRejected:
			return rt.NewArray("rejected", p.Result())
		}
		return rt.NewArray("pending", goja.Undefined())
	})
	set("bufferFrom", func(data goja.Value) goja.Value { return r.newBuffer(append([]byte(nil), r.dataBytes(data)...)) })
}

// hashObject is the bridge to a running hash: update, digest, and copy
// (a new hash in the same state, through the state's binary encoding).
func (r *run) hashObject(alg string, hs hash.Hash) *goja.Object {
	o := r.rt.NewObject()
	o.Set("update", func(data goja.Value) { hs.Write(r.dataBytes(data)) })
	o.Set("digest", func() goja.Value { return r.newUint8Array(hs.Sum(nil)) })
	o.Set("copy", func() goja.Value {
		m, ok := hs.(encoding.BinaryMarshaler)
		c := newHash(alg)
		u, ok2 := c.(encoding.BinaryUnmarshaler)
		if !ok || !ok2 {
			panic(r.newError("Error", "Hash.copy is not supported for "+alg))
		}
		state, err := m.MarshalBinary()
		if err == nil {
			err = u.UnmarshalBinary(state)
		}
		if err != nil {
			panic(r.newError("Error", "Hash.copy: "+err.Error()))
		}
		return r.hashObject(alg, c)
	})
	return o
}

// dataBytes returns the bytes of a string (UTF-8) or of binary data.
func (r *run) dataBytes(v goja.Value) []byte {
	if obj, ok := v.(*goja.Object); ok {
		if b, ok := r.bytesOf(obj); ok {
			return b
		}
	}
	return []byte(v.String())
}

// write sends output to the host; past MaxOutputBytes the run stops.
func (r *run) write(stream host.Stream, p []byte) {
	if r.over.Load() {
		panic(r.rt.NewGoError(errRunOver))
	}
	if err := r.host.Write(stream, p); err != nil {
		if le, ok := errors.AsType[*host.LimitError](err); ok {
			r.fail(le)
		} else {
			r.fail(err)
		}
		panic(r.rt.NewGoError(err))
	}
}

func newHash(alg string) hash.Hash {
	switch strings.ToLower(alg) {
	case "sha1", "sha-1":
		return sha1.New()
	case "sha224", "sha-224":
		return sha256.New224()
	case "sha256", "sha-256":
		return sha256.New()
	case "sha384", "sha-384":
		return sha512.New384()
	case "sha512", "sha-512":
		return sha512.New()
	case "sha512-224":
		return sha512.New512_224()
	case "sha512-256":
		return sha512.New512_256()
	case "sha3-224":
		return sha3.New224()
	case "sha3-256":
		return sha3.New256()
	case "sha3-384":
		return sha3.New384()
	case "sha3-512":
		return sha3.New512()
	case "md5":
		return md5.New()
	}
	return nil
}

// pbkdf2 derives keylen bytes from password and salt with iterations
// rounds of HMAC-alg (RFC 8018). It is computed here rather than with
// crypto/pbkdf2 so that a huge iteration count stops when the run does.
func (r *run) pbkdf2(alg string, password, salt []byte, iterations, keylen int) ([]byte, error) {
	if newHash(alg) == nil {
		return nil, fmt.Errorf("Invalid digest: %s", alg)
	}
	prf := hmac.New(func() hash.Hash { return newHash(alg) }, password)
	size := prf.Size()
	out := make([]byte, 0, keylen+size)
	var block [4]byte
	u := make([]byte, size)
	t := make([]byte, size)
	for i := uint32(1); len(out) < keylen; i++ {
		if i%1024 == 0 && r.ctx.Err() != nil {
			return nil, r.ctx.Err()
		}
		binary.BigEndian.PutUint32(block[:], i)
		prf.Reset()
		prf.Write(salt)
		prf.Write(block[:])
		u = prf.Sum(u[:0])
		copy(t, u)
		for n := 1; n < iterations; n++ {
			if n%4096 == 0 && r.ctx.Err() != nil {
				return nil, r.ctx.Err()
			}
			prf.Reset()
			prf.Write(u)
			u = prf.Sum(u[:0])
			for j := range t {
				t[j] ^= u[j]
			}
		}
		out = append(out, t...)
	}
	return out[:keylen], nil
}
