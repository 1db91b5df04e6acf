package js

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/nookdev/nook/runtime/host"
	"github.com/nookdev/nook/vfs"
)

// Namespaces of the esbuild module graph. None of them is esbuild's "file"
// namespace, so esbuild never looks at the host's filesystem (no tsconfig
// or package.json lookups): every byte comes from the workspace or from
// this package.
const (
	nsWrapper = "nook"    // the generated entry that imports the program and hands it to __nook_main
	nsEntry   = "entry"   // the request's source
	nsVFS     = "vfs"     // a workspace file, by absolute path
	nsBuiltin = "builtin" // a node: built-in, by canonical name
	nsHost    = "host"    // a ws: host module, by name
	nsConfig  = "config"  // a bare module from Options.Modules
)

// entryName is the file name the request's source is shown under (in
// compile errors, stack traces and process.argv[1]), in the run's cwd.
const entryName = "main.ts"

// entryFile is the absolute path the entry module is shown under: the
// workspace file the source was read from (a nested "node sub/x.js"), or
// entryName in the run's cwd for inline source.
func entryFile(req *host.Request) string {
	switch {
	case strings.HasPrefix(req.Entry, "/"):
		return path.Clean(req.Entry)
	case req.Entry != "":
		return path.Join(req.Cwd, req.Entry)
	}
	return path.Join(req.Cwd, entryName)
}

// entryLoader is how the entry is parsed: by its file's extension, and as
// TypeScript (a superset models mix freely) for inline source.
func entryLoader(req *host.Request) api.Loader {
	if req.Entry != "" {
		if l, ok := loaderFor(req.Entry); ok && l != api.LoaderJSON {
			return l
		}
	}
	return api.LoaderTS
}

// withRequireMain makes require.main the entry's module in a CommonJS
// entry that asks ("if (require.main === module) main()"), as in Node.
func withRequireMain(src string) string {
	if !strings.Contains(src, "require.main") || esmSyntax.MatchString(src) {
		return src
	}
	at := prologueEnd(src)
	return src[:at] + "require.main = module;" + src[at:]
}

var esmSyntax = regexp.MustCompile(`(?m)^\s*(?:import|export)\b`)

// extensions are the module file extensions, in the order extensionless
// imports probe them.
var extensions = []string{".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json"}

func loaderFor(p string) (api.Loader, bool) {
	switch path.Ext(p) {
	case ".ts", ".mts", ".cts":
		return api.LoaderTS, true
	case ".tsx":
		return api.LoaderTSX, true
	case ".js", ".mjs", ".cjs":
		return api.LoaderJS, true
	case ".jsx":
		return api.LoaderJSX, true
	case ".json":
		return api.LoaderJSON, true
	}
	return api.LoaderNone, false
}

// bundleBanner and bundleFooter wrap the ES module bundle in an async
// function, which is what makes top-level await work in goja (which has no
// modules). The bundle is a function expression: running the program
// returns it, and the run calls it with its require and main hook.
const (
	bundleBanner = "(function (require, __nook_require, __nook_main, __nook_import_meta) { return (async () => {"
	bundleFooter = "})(); })"
)

// dep is a workspace file a compiled program was built from, with the
// content hash it had; hash "" records a path that was probed and did not
// exist, so creating it later invalidates the program too.
type dep struct {
	Path string
	Hash string
}

// graph is the state of one bundle build, shared by esbuild's plugin
// callbacks (which run on several goroutines).
type graph struct {
	ctx   context.Context
	fsys  *vfs.FS
	b     *Backend
	req   *host.Request
	entry string // absolute display path of the entry

	mu       sync.Mutex
	deps     []dep
	seenDeps map[string]bool
	depth    map[string]int // namespace:path → import depth (entry 0)
	modules  int
	bytes    int64
	limitErr *host.LimitError
	// noStrict are the modules without a 'use strict' directive, by
	// esbuild input name; those esbuild reads as CommonJS or scripts make
	// the bundle sloppy (see strictBundle).
	noStrict map[string]bool
}

// transform bundles req's source and everything it imports into one
// script. It returns the script and the workspace files it read.
// The entry's module format as esbuild detected it: "esm" (import/export
// syntax), "cjs" (module.exports/require) or "" (a plain script).
func (b *Backend) transform(ctx context.Context, fsys *vfs.FS, req *host.Request) (string, []dep, string, error) {
	g := &graph{
		ctx: ctx, fsys: fsys, b: b, req: req,
		entry:    entryFile(req),
		seenDeps: map[string]bool{},
		depth:    map[string]int{},
		noStrict: map[string]bool{},
	}
	res := api.Build(api.BuildOptions{
		EntryPoints:    []string{"nook:main"},
		Bundle:         true,
		Write:          false,
		Format:         api.FormatESModule,
		Platform:       api.PlatformNeutral,
		Target:         api.ESNext,
		Supported:      supported,
		Sourcemap:      api.SourceMapInline,
		SourcesContent: api.SourcesContentExclude,
		Charset:        api.CharsetUTF8,
		LogLevel:       api.LogLevelSilent,
		AbsWorkingDir:  "/",
		TsconfigRaw:    `{"compilerOptions":{}}`,
		Banner:         map[string]string{"js": bundleBanner},
		Footer:         map[string]string{"js": bundleFooter},
		Define:         map[string]string{"import.meta": "__nook_import_meta"},
		Outfile:        "bundle.js",
		Metafile:       true,
		Plugins:        []api.Plugin{{Name: "nook", Setup: g.setup}},
	})
	if g.limitErr != nil {
		return "", nil, "", g.limitErr
	}
	if len(res.Errors) > 0 {
		return "", nil, "", errors.New(formatMessages(res.Errors, req.Cwd))
	}
	var meta struct {
		Inputs map[string]struct {
			Format string `json:"format"`
		} `json:"inputs"`
	}
	json.Unmarshal([]byte(res.Metafile), &meta)
	format := meta.Inputs["entry:"+g.entry].Format
	// ES modules are strict code. esbuild drops their (implied) strictness
	// when it hoists them into the bundle's scope, and it also inlines
	// strict CommonJS files that export nothing without their directive;
	// so the whole bundle is made strict unless some module is sloppy
	// code in Node too (a CommonJS file or plain script without 'use
	// strict'), which then keeps the bundle as it was.
	strict := true
	for name, in := range meta.Inputs {
		if g.noStrict[name] && in.Format != "esm" {
			strict = false
			break
		}
	}
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ".js") {
			out := string(f.Contents)
			if strict {
				out = strings.Replace(out, bundleBanner, bundleBanner+`"use strict";`, 1)
			}
			return out, g.deps, format, nil
		}
	}
	return "", nil, "", errors.New("js: esbuild produced no output")
}

// supported lists the syntax goja lacks, so esbuild lowers it.
var supported = map[string]bool{
	"async-generator":      false,
	"for-await":            false,
	"dynamic-import":       false, // import(x) becomes our require, so literal and non-literal both work
	"regexp-match-indices": false,
	"regexp-set-notation":  false,
	"using":                false,
	"decorators":           false,
	"hashbang":             false,
	"top-level-await":      true,
}

func (g *graph) setup(pb api.PluginBuild) {
	pb.OnResolve(api.OnResolveOptions{Filter: ".*"}, g.resolve)
	pb.OnLoad(api.OnLoadOptions{Filter: ".*"}, g.load)
}

// fail records a limit error (the first one wins) and returns it as an
// esbuild result error.
func (g *graph) fail(le *host.LimitError) error {
	g.mu.Lock()
	if g.limitErr == nil {
		g.limitErr = le
	}
	g.mu.Unlock()
	return le
}

func (g *graph) resolve(args api.OnResolveArgs) (api.OnResolveResult, error) {
	spec := args.Path
	switch {
	case args.Kind == api.ResolveEntryPoint:
		return api.OnResolveResult{Path: "main", Namespace: nsWrapper}, nil
	case args.Namespace == nsWrapper && spec == "nook:entry":
		return api.OnResolveResult{Path: g.entry, Namespace: nsEntry}, nil
	case strings.HasPrefix(spec, "ws:"):
		if _, ok := g.req.Modules[spec]; !ok {
			return api.OnResolveResult{}, fmt.Errorf("unknown host module %q%s", spec, available("host modules", hostNames(g.req.Modules)))
		}
		return api.OnResolveResult{Path: spec, Namespace: nsHost}, nil
	case strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == "..":
		return g.resolveRelative(args)
	case strings.HasPrefix(spec, "/"):
		return api.OnResolveResult{}, fmt.Errorf("cannot import %q: use a relative import (\"./file.ts\"), resolved from the importing file", spec)
	}
	if _, ok := g.b.opts.Modules[spec]; ok {
		return api.OnResolveResult{Path: spec, Namespace: nsConfig}, nil
	}
	if name, ok := builtinName(spec); ok {
		return api.OnResolveResult{Path: name, Namespace: nsBuiltin}, nil
	}
	return api.OnResolveResult{}, fmt.Errorf("cannot find module %q%s", spec, available("modules", g.bareNames()))
}

// bareNames lists the bare specifiers a program may import.
// The legacy aliases (node:_stream_readable, ...) still import but are
// not offered.
func (g *graph) bareNames() []string {
	var names []string
	for _, n := range builtinNames() {
		if !strings.HasPrefix(n, "node:_") {
			names = append(names, n)
		}
	}
	for n := range g.b.opts.Modules {
		names = append(names, n)
	}
	names = append(names, hostNames(g.req.Modules)...)
	sort.Strings(names)
	return names
}

func hostNames(m map[string][]string) []string {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func available(what string, names []string) string {
	if len(names) == 0 {
		return " (no " + what + " are available)"
	}
	return "; available " + what + ": " + strings.Join(names, ", ")
}

// resolveRelative resolves a relative specifier against the importing
// file's directory, confined to the backend's root.
func (g *graph) resolveRelative(args api.OnResolveArgs) (api.OnResolveResult, error) {
	if args.Namespace != nsEntry && args.Namespace != nsVFS {
		return api.OnResolveResult{}, fmt.Errorf("cannot import %q from %s: only workspace files may use relative imports", args.Path, args.Importer)
	}
	g.mu.Lock()
	d := g.depth[args.Namespace+":"+args.Importer] + 1
	g.mu.Unlock()
	if max := g.req.Limits.MaxModuleDepth; d > max {
		return api.OnResolveResult{}, g.fail(&host.LimitError{Limit: "MaxModuleDepth", Max: int64(max),
			What: fmt.Sprintf("import chain of depth %d (at %q from %s)", d, args.Path, args.Importer)})
	}
	p := path.Join(args.ResolveDir, args.Path)
	root := g.b.opts.Root
	if !within(root, p) {
		return api.OnResolveResult{}, fmt.Errorf("cannot import %q: %s is outside %s", args.Path, p, root)
	}
	found, err := g.probe(p)
	if err != nil {
		return api.OnResolveResult{}, err
	}
	if found == "" {
		return api.OnResolveResult{}, fmt.Errorf("cannot find module %q (no file %s%s)", args.Path, p, probeHint(p))
	}
	g.mu.Lock()
	key := nsVFS + ":" + found
	if old, ok := g.depth[key]; !ok || d < old {
		g.depth[key] = d
	}
	g.mu.Unlock()
	return api.OnResolveResult{Path: found, Namespace: nsVFS}, nil
}

func probeHint(p string) string {
	if _, ok := loaderFor(p); ok {
		return ""
	}
	return " with any of the extensions " + strings.Join(extensions, " ")
}

// within reports whether p is root or below it.
func within(root, p string) bool {
	return p == root || root == "/" || strings.HasPrefix(p, root+"/")
}

// probe finds the file an import of p names: p itself, p with a module
// extension, a .ts file for a .js import (TypeScript's convention), or
// an index file in the directory p. Probes that miss are recorded, so a
// cached program is rebuilt when one of them appears.
func (g *graph) probe(p string) (string, error) {
	var cands []string
	if _, ok := loaderFor(p); ok {
		cands = append(cands, p)
		switch path.Ext(p) {
		case ".js":
			cands = append(cands, strings.TrimSuffix(p, ".js")+".ts", strings.TrimSuffix(p, ".js")+".tsx")
		case ".mjs":
			cands = append(cands, strings.TrimSuffix(p, ".mjs")+".mts")
		case ".cjs":
			cands = append(cands, strings.TrimSuffix(p, ".cjs")+".cts")
		}
	} else {
		for _, e := range extensions {
			cands = append(cands, p+e)
		}
		for _, e := range extensions {
			cands = append(cands, p+"/index"+e)
		}
	}
	for _, c := range cands {
		real, ok, err := g.isFile(c)
		if err != nil {
			return "", err
		}
		if ok {
			return real, nil
		}
		g.addDep(dep{Path: c})
	}
	return "", nil
}

// isFile reports whether p is a regular file, following symlinks that stay
// under the root. It returns the path the file is read through.
func (g *graph) isFile(p string) (string, bool, error) {
	for range 8 {
		fi, err := g.fsys.Lstat(g.ctx, p)
		if err != nil {
			if errors.Is(err, vfs.ENOENT) || errors.Is(err, vfs.ENOTDIR) {
				return "", false, nil
			}
			return "", false, err
		}
		switch fi.Kind {
		case vfs.TypeFile:
			return p, true, nil
		case vfs.TypeSymlink:
			t := fi.Target
			if !strings.HasPrefix(t, "/") {
				t = path.Join(path.Dir(p), t)
			}
			t = path.Clean(t)
			if !within(g.b.opts.Root, t) {
				return "", false, fmt.Errorf("cannot import %s: it is a symlink to %s, outside %s", p, t, g.b.opts.Root)
			}
			p = t
		default:
			return "", false, nil
		}
	}
	return "", false, fmt.Errorf("cannot import %s: too many levels of symbolic links", p)
}

func (g *graph) addDep(d dep) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.seenDeps[d.Path] {
		return
	}
	g.seenDeps[d.Path] = true
	g.deps = append(g.deps, d)
}

// count adds one module of n bytes to the graph's totals, failing when a
// limit is passed.
func (g *graph) count(name string, n int) error {
	g.mu.Lock()
	g.modules++
	g.bytes += int64(n)
	m, b := g.modules, g.bytes
	g.mu.Unlock()
	l := g.req.Limits
	if m > l.MaxModules {
		return g.fail(&host.LimitError{Limit: "MaxModules", Max: int64(l.MaxModules),
			What: fmt.Sprintf("module graph of %d modules (at %s)", m, name)})
	}
	if b > l.MaxSourceBytes {
		return g.fail(&host.LimitError{Limit: "MaxSourceBytes", Max: l.MaxSourceBytes,
			What: fmt.Sprintf("source of %d bytes with its imports (at %s)", b, name)})
	}
	return nil
}

// nesting refuses a module nested deeper than MaxNestingDepth before
// esbuild parses it (esbuild recurses on the Go stack; see nesting.go).
func (g *graph) nesting(name, src string, loader api.Loader) error {
	max := g.req.Limits.MaxNestingDepth
	if loader == api.LoaderJSON {
		if err := host.CheckJSONNesting(name, src, max); err != nil {
			return g.fail(err.(*host.LimitError))
		}
		return nil
	}
	if err := checkSource(name, src, max); err != nil {
		return g.fail(err.(*host.LimitError))
	}
	return nil
}

func (g *graph) load(args api.OnLoadArgs) (api.OnLoadResult, error) {
	switch args.Namespace {
	case nsWrapper:
		src := `import * as m from "nook:entry"; __nook_main(m);`
		return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
	case nsEntry:
		src := g.req.Source
		if err := g.count(path.Base(g.entry), len(src)); err != nil {
			return api.OnLoadResult{}, err
		}
		if err := g.nesting(g.entry, src, api.LoaderTS); err != nil {
			return api.OnLoadResult{}, err
		}
		src = withRequireMain(withFileVars(src, g.entry))
		g.markStrictness(nsEntry+":"+g.entry, src)
		return api.OnLoadResult{Contents: &src, Loader: entryLoader(g.req), ResolveDir: path.Dir(g.entry)}, nil
	case nsVFS:
		loader, _ := loaderFor(args.Path)
		if loader == api.LoaderNone {
			loader = api.LoaderJS
		}
		fi, err := g.fsys.Stat(g.ctx, args.Path)
		if err != nil {
			return api.OnLoadResult{}, err
		}
		if err := g.count(args.Path, int(fi.Bytes)); err != nil {
			return api.OnLoadResult{}, err
		}
		data, err := g.fsys.ReadFile(g.ctx, args.Path)
		if err != nil {
			return api.OnLoadResult{}, err
		}
		g.addDep(dep{Path: args.Path, Hash: vfs.HashContent(data)})
		src := string(data)
		if err := g.nesting(args.Path, src, loader); err != nil {
			return api.OnLoadResult{}, err
		}
		if loader != api.LoaderJSON {
			src = withFileVars(src, args.Path)
			g.markStrictness(nsVFS+":"+args.Path, src)
		}
		return api.OnLoadResult{Contents: &src, Loader: loader, ResolveDir: path.Dir(args.Path)}, nil
	case nsBuiltin:
		src := "module.exports = __nook_require(" + strconv.Quote(args.Path) + ");"
		return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
	case nsHost:
		src := hostStub(args.Path, g.req.Modules[args.Path])
		return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
	case nsConfig:
		src := g.b.opts.Modules[args.Path]
		g.markStrictness(nsConfig+":"+args.Path, src)
		if err := g.count(args.Path, len(src)); err != nil {
			return api.OnLoadResult{}, err
		}
		if err := g.nesting(args.Path, src, api.LoaderJS); err != nil {
			return api.OnLoadResult{}, err
		}
		return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
	}
	return api.OnLoadResult{}, fmt.Errorf("js: no loader for %s:%s", args.Namespace, args.Path)
}

// markStrictness records a module that has no 'use strict' directive.
func (g *graph) markStrictness(name, src string) {
	if hasUseStrict(src) {
		return
	}
	g.mu.Lock()
	g.noStrict[name] = true
	g.mu.Unlock()
}

// hostStub is the ES module standing for a ws: host module: its functions
// as named exports (so a misspelt import fails before the run), and the
// whole module as the default export.
func hostStub(name string, funcs []string) string {
	var b strings.Builder
	b.WriteString("const m = __nook_require(" + strconv.Quote(name) + ");\nexport default m;\n")
	fs := slices.Clone(funcs)
	sort.Strings(fs)
	for _, f := range fs {
		if isIdent(f) {
			fmt.Fprintf(&b, "export const %s = m[%q];\n", f, f)
		}
	}
	return b.String()
}

func isIdent(s string) bool {
	if s == "" || reserved[s] {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

var reserved = map[string]bool{"default": true, "m": true, "await": true, "break": true, "case": true, "catch": true,
	"class": true, "const": true, "continue": true, "debugger": true, "delete": true, "do": true, "else": true,
	"enum": true, "export": true, "extends": true, "false": true, "finally": true, "for": true, "function": true,
	"if": true, "import": true, "in": true, "instanceof": true, "new": true, "null": true, "return": true,
	"super": true, "switch": true, "this": true, "throw": true, "true": true, "try": true, "typeof": true,
	"var": true, "void": true, "while": true, "with": true, "yield": true, "let": true, "static": true,
	"implements": true, "interface": true, "package": true, "private": true, "protected": true, "public": true}

// formatMessages renders esbuild errors the way a model reads them best:
// "file:line:col: message", the source line and a caret.
func formatMessages(msgs []api.Message, cwd string) string {
	var b strings.Builder
	for i, m := range msgs {
		if i == 5 {
			fmt.Fprintf(&b, "... and %d more errors\n", len(msgs)-i)
			break
		}
		if l := m.Location; l != nil {
			fmt.Fprintf(&b, "%s:%d:%d: %s\n", displayPath(l.File, cwd), l.Line, l.Column+1, cleanText(m.Text, cwd))
			if l.LineText != "" && len(l.LineText) < 300 {
				fmt.Fprintf(&b, "    %s\n    %s^\n", l.LineText, strings.Repeat(" ", caretCol(l.LineText, l.Column)))
			}
		} else {
			b.WriteString(cleanText(m.Text, cwd) + "\n")
		}
		for _, n := range m.Notes {
			if n.Text != "" && n.Location != nil {
				fmt.Fprintf(&b, "  note: %s:%d:%d: %s\n", displayPath(n.Location.File, cwd), n.Location.Line, n.Location.Column+1, n.Text)
			}
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

var quotedNS = regexp.MustCompile(`"(?:nook|entry|vfs|builtin|host|config):([^"]*)"`)

// cleanText replaces esbuild's namespaced paths in a message with the
// paths a model knows.
func cleanText(s, cwd string) string {
	return quotedNS.ReplaceAllStringFunc(s, func(q string) string {
		return `"` + displayPath(q[1:len(q)-1], cwd) + `"`
	})
}

// caretCol counts the characters before byte col, with tabs kept wide.
func caretCol(line string, col int) int {
	if col > len(line) {
		col = len(line)
	}
	return len([]rune(line[:col]))
}

// displayPath turns an esbuild file name ("vfs:/workspace/a.ts") into the
// path a model knows: relative to cwd when under it, else absolute.
func displayPath(file, cwd string) string {
	if ns, p, ok := strings.Cut(file, ":"); ok && (ns == nsVFS || ns == nsEntry || ns == nsBuiltin || ns == nsHost || ns == nsConfig || ns == nsWrapper) {
		file = p
	}
	if strings.HasPrefix(file, cwd+"/") {
		return strings.TrimPrefix(file, cwd+"/")
	}
	return file
}
