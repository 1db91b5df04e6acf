package wasm

import (
	"container/list"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// engine holds a backend's compiled modules.
//
// wazero fixes the memory limit and the interruption mode per runtime, so
// there is one runtime per (cache directory, memory limit, checked) in use,
// usually one or two per process. Runtimes and their compilation caches are
// shared by every Backend of the process (see shared): a module compiled
// for one backend is cheap for another.
type engine struct {
	opts Options

	mu      sync.Mutex
	modules map[modKey]*compiled
	lru     *list.List // of *compiled, most recent first
	// byContent maps the vfs content hash of a module file (and a memory
	// limit) to its compiled module, so a known file is not read again.
	byContent map[contentKey]*compiled
	closed    bool
}

type rtKey struct {
	dir     string
	pages   uint32
	checked bool
}

type rtEntry struct {
	rt wazero.Runtime
	// wasi lists the functions of wasi_snapshot_preview1 by name.
	wasi map[string]bool
}

type contentKey struct {
	hash  string
	pages uint32
}

type modKey struct {
	sum   [32]byte
	pages uint32
}

// compiled is a module compiled for one runtime.
type compiled struct {
	key   modKey
	ready chan struct{} // closed when cm or err is set
	cm    wazero.CompiledModule
	rt    *rtEntry
	// rewritten reports whether cm was compiled from meter's rewrite
	// (always, but for a module wazero refuses); info is what it found.
	rewritten bool
	info      meterInfo
	err       error
	elem      *list.Element
}

func newEngine(opts Options) *engine {
	return &engine{opts: opts, modules: map[modKey]*compiled{}, lru: list.New(), byContent: map[contentKey]*compiled{}}
}

// shared are the process's wazero runtimes and compilation caches. They
// live as long as the process.
//
// wazero's compilation cache keys compiled code by the module's hash alone,
// not by whether the code checks for context cancellation: a module compiled
// without the checks would be reused by a runtime that promised them. Here
// the checked runtime compiles checked rewrites (marked by a custom section)
// and modules wazero refuses, the unchecked one only metered rewrites, whose
// bytes (and so hashes) differ, so sharing one cache is safe.
var shared = struct {
	mu       sync.Mutex
	caches   map[string]wazero.CompilationCache
	runtimes map[rtKey]*rtEntry
}{caches: map[string]wazero.CompilationCache{}, runtimes: map[rtKey]*rtEntry{}}

// runtime returns the runtime for k, creating it on first use.
func runtimeFor(ctx context.Context, k rtKey) (*rtEntry, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if r := shared.runtimes[k]; r != nil {
		return r, nil
	}
	cache := shared.caches[k.dir]
	if cache == nil {
		if k.dir != "" {
			c, err := wazero.NewCompilationCacheWithDir(k.dir)
			if err != nil {
				return nil, fmt.Errorf("wasm compilation cache %s: %w", k.dir, err)
			}
			cache = c
		} else {
			cache = wazero.NewCompilationCache()
		}
		shared.caches[k.dir] = cache
	}
	cfg := wazero.NewRuntimeConfigCompiler().
		WithCompilationCache(cache).
		WithMemoryLimitPages(k.pages).
		WithMemoryCapacityFromMax(false).
		WithCloseOnContextDone(k.checked).
		WithCustomSections(false)
	rt := wazero.NewRuntimeWithConfig(ctx, cfg)
	if err := instantiateWASI(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, err
	}
	if _, err := instantiateNook(ctx, rt); err != nil {
		rt.Close(ctx)
		return nil, err
	}
	r := &rtEntry{rt: rt, wasi: map[string]bool{}}
	for name := range rt.Module(wasi_snapshot_preview1.ModuleName).ExportedFunctionDefinitions() {
		r.wasi[name] = true
	}
	shared.runtimes[k] = r
	return r, nil
}

// compile returns bin compiled for a memory limit of pages, from the cache
// when it was compiled before. Concurrent compiles of one module wait for
// the first.
func (e *engine) compile(ctx context.Context, bin []byte, pages uint32) (*compiled, error) {
	k := modKey{sum: sha256.Sum256(bin), pages: pages}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, errors.New("the wasm backend is closed")
	}
	if c := e.modules[k]; c != nil {
		if c.elem != nil {
			e.lru.MoveToFront(c.elem)
		}
		e.mu.Unlock()
		select {
		case <-c.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if c.err != nil {
			return nil, c.err
		}
		return c, nil
	}
	c := &compiled{key: k, ready: make(chan struct{})}
	e.modules[k] = c
	e.mu.Unlock()

	c.cm, c.rt, c.rewritten, c.info, c.err = e.build(ctx, bin, pages)
	close(c.ready)

	e.mu.Lock()
	defer e.mu.Unlock()
	if c.err != nil {
		delete(e.modules, k) // a failed compile is not cached: it may have been cancelled
		return nil, c.err
	}
	c.elem = e.lru.PushFront(c)
	for e.lru.Len() > e.opts.MaxCompiled {
		old := e.lru.Remove(e.lru.Back()).(*compiled)
		delete(e.modules, old.key)
		// Instances of a compiled module keep working after it is closed.
		old.cm.Close(context.Background())
	}
	return c, nil
}

// known returns the module compiled from the file whose vfs content hash
// is chash, if it is still cached.
func (e *engine) known(chash string, pages uint32) *compiled {
	e.mu.Lock()
	defer e.mu.Unlock()
	c := e.byContent[contentKey{chash, pages}]
	if c == nil || e.modules[c.key] != c {
		return nil
	}
	select {
	case <-c.ready:
	default:
		return nil
	}
	if c.err != nil {
		return nil
	}
	e.lru.MoveToFront(c.elem)
	return c
}

// remember records that the file with content hash chash compiled to c.
func (e *engine) remember(chash string, c *compiled) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.byContent) > 4*e.opts.MaxCompiled {
		for k, v := range e.byContent {
			if e.modules[v.key] != v {
				delete(e.byContent, k)
			}
		}
	}
	e.byContent[contentKey{chash, c.key.pages}] = c
}

// build compiles bin rewritten by meter (with fuel checks unless the
// backend is configured for checked interruption), and checks its imports
// and its entry point. A module the rewrite cannot decode is one wazero
// refuses too: it is compiled as it is so that wazero says why.
func (e *engine) build(ctx context.Context, bin []byte, pages uint32) (wazero.CompiledModule, *rtEntry, bool, meterInfo, error) {
	var info meterInfo
	if err := checkLimits(bin); err != nil {
		return nil, nil, false, info, fmt.Errorf("invalid WebAssembly module: %w", err)
	}
	checked := e.opts.Interrupt == InterruptChecked
	src, info, err := meter(bin, !checked)
	rewritten := err == nil
	if !rewritten {
		src, checked = bin, true
	}
	r, err := runtimeFor(ctx, rtKey{dir: e.opts.CacheDir, pages: pages, checked: checked})
	if err != nil {
		return nil, nil, false, info, err
	}
	cm, err := r.rt.CompileModule(ctx, src)
	if err != nil {
		return nil, nil, false, info, fmt.Errorf("invalid WebAssembly module: %w", err)
	}
	if err := checkModule(cm, r); err != nil {
		cm.Close(ctx)
		return nil, nil, false, info, err
	}
	return cm, r, rewritten, info, nil
}

// checkModule refuses modules that import what the backend does not
// provide, or that are not WASI commands.
func checkModule(cm wazero.CompiledModule, r *rtEntry) error {
	for _, f := range cm.ImportedFunctions() {
		mod, name, _ := f.Import()
		switch {
		case mod == wasi_snapshot_preview1.ModuleName && r.wasi[name]:
		case mod == nookModule && nookFuncs[name]:
		default:
			return fmt.Errorf("the module imports %s.%s, which this backend does not provide (it provides %s and %s)",
				mod, name, wasi_snapshot_preview1.ModuleName, nookModule)
		}
	}
	for _, m := range cm.ImportedMemories() {
		mod, name, _ := m.Import()
		return fmt.Errorf("the module imports the memory %s.%s; this backend provides none", mod, name)
	}
	f := cm.ExportedFunctions()["_start"]
	if f == nil {
		return errors.New("the module exports no _start function: only WASI commands can run (a reactor with _initialize cannot)")
	}
	if len(f.ParamTypes()) != 0 || len(f.ResultTypes()) != 0 {
		return errors.New("the module's _start function must take and return nothing")
	}
	return nil
}

func (e *engine) close(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	var errs []error
	for _, c := range e.modules {
		if c.cm != nil {
			errs = append(errs, c.cm.Close(ctx))
		}
	}
	clear(e.modules)
	clear(e.byContent)
	e.lru.Init()
	return errors.Join(errs...)
}
