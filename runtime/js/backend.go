package js

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/vfs"
)

// Options configure a JavaScript backend. Zero fields take defaults.
type Options struct {
	// ID selects the backend in Exec (default "js").
	ID string
	// Description is what a model reads about the backend (default: a
	// description of the language, its modules and how to return a value).
	Description string
	// Root is the workspace directory code may reach (default
	// "/workspace"); Access says whether it may change it.
	Root   string
	Access host.Access
	// DefaultTimeout applies when a caller gives none (default 60 s); a
	// caller's timeout is clamped to MaxTimeout (default 30 min).
	DefaultTimeout time.Duration
	MaxTimeout     time.Duration
	// Modules are extra modules code may import by a bare name, given as
	// JavaScript source (ES module or CommonJS), e.g. "lodash-lite".
	Modules map[string]string
}

// Backend runs JavaScript and TypeScript modules in goja. It implements
// runtime.Backend; it is safe for concurrent use.
type Backend struct {
	opts    Options
	optsKey string // the options' part of cache keys
	cache   *programCache
}

var _ host.Backend = (*Backend)(nil)

// New returns a JavaScript backend.
func New(opts Options) *Backend {
	if opts.ID == "" {
		opts.ID = "js"
	}
	if opts.Root == "" {
		opts.Root = "/workspace"
	}
	opts.Root = path.Clean("/" + opts.Root)
	if opts.DefaultTimeout <= 0 {
		opts.DefaultTimeout = host.DefaultTimeout
	}
	if opts.MaxTimeout <= 0 {
		opts.MaxTimeout = host.DefaultMaxTimeout
	}
	if opts.DefaultTimeout > opts.MaxTimeout {
		opts.DefaultTimeout = opts.MaxTimeout
	}
	if opts.Description == "" {
		opts.Description = describe(opts)
	}
	setRegexpTimeout()
	h := sha256.New()
	fmt.Fprintf(h, "root=%q\n", opts.Root)
	names := make([]string, 0, len(opts.Modules))
	for n := range opts.Modules {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(h, "module %q %d\n%s\n", n, len(opts.Modules[n]), opts.Modules[n])
	}
	return &Backend{opts: opts, optsKey: hex.EncodeToString(h.Sum(nil)), cache: newProgramCache(256)}
}

func describe(o Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "JavaScript or TypeScript, run as an ES module (top-level await works). "+
		"Export a default function: it is called with the JSON input and its (awaited) return value is the result, "+
		"which must be JSON-compatible. Files live under %s (%s); relative paths and relative imports "+
		"(\"./lib.ts\") resolve from the working directory. ", o.Root, o.Access)
	b.WriteString("Built-in modules: node:fs (sync, callback, promise and stream APIs, fs.watch), node:fs/promises, node:path, " +
		"node:buffer, node:stream, node:stream/promises, node:string_decoder, node:readline, node:zlib (gzip, deflate), " +
		"node:util, node:events, node:url, node:process, node:timers, node:timers/promises, node:module (createRequire), " +
		"node:crypto (randomUUID, getRandomValues, createHash), node:os, node:assert, node:test, node:worker_threads " +
		"(main thread only). node:child_process (exec, execSync, spawn, execFile: commands run on the workspace's shell backend, node on this one; output arrives when the child ends). " +
		"Host modules the caller provides are imported from \"ws:<name>\"; their functions are async. " +
		"Globals: console, process (env, argv, exit, stdin), timers, fetch (only when the workspace has an " +
		"outbound network policy), URL, TextEncoder/TextDecoder, Buffer, structuredClone, atob/btoa, crypto. " +
		"There is no npm: other bare imports fail unless configured.")
	if len(o.Modules) > 0 {
		names := make([]string, 0, len(o.Modules))
		for n := range o.Modules {
			names = append(names, n)
		}
		sort.Strings(names)
		b.WriteString(" Configured modules: " + strings.Join(names, ", ") + ".")
	}
	return b.String()
}

// Info describes the backend.
func (b *Backend) Info() host.BackendInfo {
	return host.BackendInfo{
		ID:             b.opts.ID,
		Description:    b.opts.Description,
		Callable:       true,
		Root:           b.opts.Root,
		Access:         b.opts.Access,
		DefaultTimeout: b.opts.DefaultTimeout,
		MaxTimeout:     b.opts.MaxTimeout,
	}
}

// Prepare bundles and compiles req's source with everything it imports,
// or takes the compiled program from the cache when neither the source
// nor any file it was built from changed. Syntax errors, unresolvable
// imports and source limits fail here, before any run exists.
func (b *Backend) Prepare(ctx context.Context, fsys *vfs.FS, req *host.Request) (host.Program, error) {
	r := *req
	r.Limits = r.Limits.WithDefaults()
	if r.Cwd == "" {
		r.Cwd = b.opts.Root
	}
	r.Cwd = path.Clean(r.Cwd)
	if !within(b.opts.Root, r.Cwd) {
		return nil, fmt.Errorf("the working directory %s is outside %s", r.Cwd, b.opts.Root)
	}
	if n := int64(len(r.Input)); n > r.Limits.MaxInputBytes {
		return nil, &host.LimitError{Limit: "MaxInputBytes", Max: r.Limits.MaxInputBytes,
			What: fmt.Sprintf("input of %d bytes", n)}
	}
	if err := host.CheckJSONNesting("the input", r.Input, r.Limits.MaxNestingDepth); err != nil {
		return nil, err
	}
	if n := int64(len(r.Source)); n > r.Limits.MaxSourceBytes {
		return nil, &host.LimitError{Limit: "MaxSourceBytes", Max: r.Limits.MaxSourceBytes,
			What: fmt.Sprintf("source of %d bytes", n)}
	}
	key := b.cacheKey(&r)
	if e, ok := b.cache.get(ctx, fsys, key); ok {
		return &program{b: b, code: e.code, src: e.src, features: e.features, format: e.format, req: &r}, nil
	}
	src, deps, format, err := b.transform(ctx, fsys, &r)
	if err != nil {
		return nil, err
	}
	code, err := compileBundle(src, r.Limits.MaxNestingDepth)
	if err != nil {
		return nil, err
	}
	feats := features(src)
	b.cache.put(key, &cacheEntry{code: code, src: src, deps: deps, features: feats, format: format})
	return &program{b: b, code: code, src: src, features: feats, format: format, req: &r}, nil
}

// compileBundle compiles a bundle with goja, after checking its nesting
// (goja's parser and compiler recurse on the Go stack too; esbuild's
// lowering can add a few levels to what the modules had).
func compileBundle(src string, max int) (*goja.Program, error) {
	if err := checkSource("the bundle", src, max+bundleLevels); err != nil {
		return nil, err
	}
	code, err := compileFixed("bundle.js", src, false)
	if err != nil {
		return nil, fmt.Errorf("js: compiling the bundle: %v", err)
	}
	return code, nil
}

// compileFixed is goja.Compile with fixArrowArguments applied in
// between when the source could need it.
func compileFixed(name, src string, strict bool) (*goja.Program, error) {
	if !mentionsArrowArguments(src) {
		return goja.Compile(name, src, strict)
	}
	prg, err := goja.Parse(name, src)
	if err != nil {
		return nil, err
	}
	fixArrowArguments(prg)
	return goja.CompileAST(prg, strict)
}

// bundleLevels is the nesting the bundle's wrapper and esbuild's lowering
// may add to the deepest module.
const bundleLevels = 16

// snapshot is what a program saves for a replay: the bundle it runs.
type snapshot struct {
	Version int    `json:"v"`
	Format  string `json:"format"`
	Bundle  string `json:"bundle"`
}

// Snapshot returns the program's bundle, so that a replay runs exactly
// this program even if the modules it imported changed since.
func (p *program) Snapshot() []byte {
	b, _ := json.Marshal(snapshot{Version: 1, Format: p.format, Bundle: p.src})
	return b
}

// Restore rebuilds a program from its Snapshot, for req.
func (b *Backend) Restore(ctx context.Context, snap []byte, req *host.Request) (host.Program, error) {
	var s snapshot
	if err := json.Unmarshal(snap, &s); err != nil || s.Version != 1 {
		return nil, fmt.Errorf("js: the saved program is not one this version can run")
	}
	r := *req
	r.Limits = r.Limits.WithDefaults()
	// A worker of the process tier restores every run's program: keep
	// the compiled bundle (it depends on no workspace file, only on the
	// nesting limit it was checked against).
	sum := sha256.Sum256([]byte(s.Bundle))
	key := fmt.Sprintf("restore\x00%s\x00%d\x00%s", s.Format, r.Limits.MaxNestingDepth, hex.EncodeToString(sum[:]))
	if e, ok := b.cache.get(ctx, nil, key); ok {
		return &program{b: b, code: e.code, src: e.src, features: e.features, format: e.format, req: &r}, nil
	}
	code, err := compileBundle(s.Bundle, r.Limits.MaxNestingDepth)
	if err != nil {
		return nil, err
	}
	feats := features(s.Bundle)
	b.cache.put(key, &cacheEntry{code: code, src: s.Bundle, features: feats, format: s.Format})
	return &program{b: b, code: code, src: s.Bundle, features: feats, format: s.Format, req: &r}, nil
}

// typedNames are the constructors that allocate their whole size at once.
var typedNames = []string{"ArrayBuffer", "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
	"Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"}

// polyfilled names the built-ins the prelude adds when the program
// mentions one of them.
var polyfilled = []string{"groupBy", "withResolvers", "fromAsync", "union", "intersection", "difference",
	"isSubsetOf", "isSupersetOf", "isDisjointFrom", "captureStackTrace"}

// features lists what the prelude installs before a run of the bundle
// src: size guards on the typed-array constructors it names, and the
// polyfills when it names one of them. Installing them costs time on
// every run, so only programs that mention them pay (a program reaching
// them by a computed name is left to the memory watchdog).
func features(src string) []string {
	var out []string
	for _, n := range typedNames {
		if strings.Contains(src, n) {
			out = append(out, "typed:"+n)
		}
	}
	any := func(names ...string) bool {
		for _, n := range names {
			if strings.Contains(src, n) {
				return true
			}
		}
		return false
	}
	if any(polyfilled...) {
		out = append(out, "polyfills")
	}
	if any("toLocaleString") {
		out = append(out, "locale")
	}
	if any("repeat", "padStart", "padEnd") {
		out = append(out, "guard:String")
	}
	if any("fill", "join", "from") {
		out = append(out, "guard:Array")
	}
	if any("replace") {
		out = append(out, "guard:replace")
	}
	for _, n := range guardedMethods {
		if strings.Contains(src, n) {
			out = append(out, "guard:"+n)
		}
	}
	// The constructors reached through a function's prototype are
	// guarded when the program could make such a function (the bundle's
	// own wrapper is an async arrow the program cannot reach).
	async, gen := ctorNeeds(strings.Replace(src, bundleBanner, "", 1))
	if async {
		out = append(out, "ctor:async")
	}
	if gen {
		out = append(out, "ctor:generator")
	}
	if any("asyncIterator") {
		out = append(out, "asyncIterator")
	}
	if any("dispose") {
		out = append(out, "dispose")
	}
	// Patterns goja hands to its backtracking engine (backreferences,
	// lookaround) or builds at run time get the match-timeout guard.
	if any("RegExp", "(?=", "(?!", "(?<", `\k<`) || backref.MatchString(src) {
		out = append(out, "regexp")
	}
	return out
}

var backref = regexp.MustCompile(`\\[1-9]`)

// guardedMethods are the built-ins whose length guard (guest/js/guards.js
// guardMethod) is installed when the program names them.
var guardedMethods = []string{"reverse", "copyWithin", "indexOf", "lastIndexOf", "includes", "concat",
	"keys", "values", "entries", "split"}

// cacheKey identifies what a compiled program depends on besides the
// workspace files it read: the source, the cwd, the backend's options,
// the host modules' names and functions, and the source limits.
func (b *Backend) cacheKey(r *host.Request) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%q %q\n%d %d %d %d\n", b.optsKey, r.Cwd, r.Entry, r.Limits.MaxSourceBytes, r.Limits.MaxModules, r.Limits.MaxModuleDepth, r.Limits.MaxNestingDepth)
	for _, n := range hostNames(r.Modules) {
		fs := append([]string(nil), r.Modules[n]...)
		sort.Strings(fs)
		fmt.Fprintf(h, "ws %q %q\n", n, fs)
	}
	fmt.Fprintf(h, "%d\n", len(r.Source))
	h.Write([]byte(r.Source))
	return hex.EncodeToString(h.Sum(nil))
}
