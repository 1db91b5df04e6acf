package js_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/internal/childproc"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/vfs"
)

const nestMsg = "nested deeper than 1000 levels"
const nestLimit = "exceeds the limit MaxNestingDepth (1000)"

// Deep inputs to the parsers a program reaches are catchable errors
// naming MaxNestingDepth; shallow ones behave as before.
func TestNestingCatchable(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
const deep = '['.repeat(5000) + ']'.repeat(5000);
const out = [];
const tryIt = (f) => { try { f(); out.push('no error'); } catch (e) { out.push(e.name + ': ' + e.message); } };
tryIt(() => JSON.parse(deep));
tryIt(() => eval(deep));
tryIt(() => (0, eval)('x = ' + '!'.repeat(5000) + '1'));
tryIt(() => new Function('return ' + deep));
tryIt(() => Function('a', 'return ' + deep));
tryIt(() => (async function () {}).constructor('return ' + deep));
tryIt(() => (function* () {}).constructor('yield ' + deep));
let o = {};
for (let i = 0; i < 5000; i++) o = { o };
tryIt(() => structuredClone(o));
console.log(out.join('\n'));
// What still works.
console.log(JSON.parse('{"a":[1,{"b":2}]}', (k, v) => (k === 'b' ? v + 1 : v)).a[1].b, JSON.parse.name, JSON.parse.length);
console.log(eval('1 + 1'), new Function('a', 'b', 'return a + b')(1, 2), Function('return 7')());
const f = function () {};
console.log(f.constructor === Function, f instanceof Function, new Function('') instanceof Function, Function.prototype.constructor === Function);
const af = (async function () {}).constructor('return 5');
console.log(af() instanceof Promise, Object.getPrototypeOf(af) === Object.getPrototypeOf(async function () {}));
console.log(structuredClone({ a: [1, { b: 2 }] }).a[1].b);
`})
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	want := []string{
		"SyntaxError: JSON text " + nestMsg + " (at byte 1000) " + nestLimit,
		"SyntaxError: eval source " + nestMsg + " (at 1:1001) " + nestLimit,
		"SyntaxError: eval source " + nestMsg + " (at 1:1004) " + nestLimit,
		"SyntaxError: Function source " + nestMsg + " (at 3:1004) " + nestLimit,
		"SyntaxError: Function source " + nestMsg + " (at 3:1004) " + nestLimit,
		"SyntaxError: AsyncFunction source " + nestMsg + " (at 3:1004) " + nestLimit,
		"SyntaxError: GeneratorFunction source " + nestMsg + " (at 3:1002) " + nestLimit,
		"RangeError: a value to structuredClone " + nestMsg + " " + nestLimit,
		"3 parse 2",
		"2 3 7",
		"true true true true",
		"true true",
		"2",
	}
	if len(lines) != len(want) {
		t.Fatalf("stdout:\n%s", r.stdout)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i, lines[i], want[i])
		}
	}
}

// AsyncFunction and GeneratorFunction are guarded once code that could
// make one appears: here only a source given to eval, and a shim.
func TestNestingLazyConstructors(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
const deep = '['.repeat(5000) + ']'.repeat(5000);
for (const f of [() => eval('(as' + 'ync () => 1)').constructor('return ' + deep), () => new Headers().keys.constructor('return ' + deep)]) {
  try { f(); console.log('no error'); } catch (e) { console.log(e.name + ': ' + e.message); }
}`})
	want := "SyntaxError: AsyncFunction source " + nestMsg + " (at 3:1004) " + nestLimit + "\n" +
		"SyntaxError: GeneratorFunction source " + nestMsg + " (at 3:1003) " + nestLimit + "\n"
	if r.stdout != want {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

// JSON crossing the Host: the input, a host module's arguments and
// results, and the run's result.
func TestNestingAcrossTheHost(t *testing.T) {
	e := newEnv(t)
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	_, err := e.prepareErr(spec{src: `export default (x) => x`, input: deep})
	var le *runtime.LimitError
	if !errors.As(err, &le) || err.Error() != "the input "+nestMsg+" (at byte 1000) "+nestLimit {
		t.Errorf("deep input: %v", err)
	}
	var nested any = []any{}
	for range 2000 {
		nested = []any{nested}
	}
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	mods := map[string]runtime.Module{"ws:deep": {
		"get":    func(context.Context, *runtime.CallContext, []any) (any, error) { return nested, nil },
		"cyclic": func(context.Context, *runtime.CallContext, []any) (any, error) { return cyclic, nil },
		"echo":   func(_ context.Context, _ *runtime.CallContext, a []any) (any, error) { return len(a), nil },
	}}
	r := e.ok(spec{modules: mods, src: `
import { get, cyclic, echo } from "ws:deep";
export default async () => {
  const out = [];
  for (const f of [get, cyclic]) {
    try { await f(); out.push("no error"); } catch (e) { out.push(e.name + ": " + e.message); }
  }
  let a = [];
  for (let i = 0; i < 2000; i++) a = [a];
  try { await echo(a); out.push("no error"); } catch (e) { out.push(e.name + ": " + e.message); }
  return out;
};`})
	// (The host refuses the cycle itself: results cross as JSON.)
	want := fmt.Sprintf(`["RangeError: a host call's result %[1]s %[2]s","Error: result of ws:deep/cyclic must be JSON-compatible values (json: unsupported value: encountered a cycle via map[string]interface {})","TypeError: a value %[1]s %[2]s"]`, nestMsg, nestLimit)
	if r.value() != want {
		t.Errorf("value:\n got %s\nwant %s", r.value(), want)
	}
	r = e.run(spec{src: `export default () => { let a = []; for (let i = 0; i < 2000; i++) a = [a]; return a; }`})
	wantLimit(t, r, "MaxNestingDepth")
	if r.exit.Err.Error() != "the result "+nestMsg+" "+nestLimit {
		t.Errorf("result: %v", r.exit.Err)
	}
}

// A module nested too deeply fails in Prepare, before esbuild parses it.
func TestNestingModules(t *testing.T) {
	e := newEnv(t)
	e.write("/workspace/deep.json", strings.Repeat("[", 1001)+strings.Repeat("]", 1001))
	e.write("/workspace/lib.js", "export const x = "+strings.Repeat("(", 1001)+"1"+strings.Repeat(")", 1001))
	for src, want := range map[string]string{
		"export default () => " + strings.Repeat("!", 2000) + "1": "/workspace/main.ts " + nestMsg + " (at 1:1021) " + nestLimit,
		`import d from "./deep.json"; export default () => d`:     "/workspace/deep.json " + nestMsg + " (at byte 1000) " + nestLimit,
		`import { x } from "./lib.js"; export default () => x`:    "/workspace/lib.js " + nestMsg + " (at 1:1017) " + nestLimit,
	} {
		_, err := e.prepareErr(spec{src: src})
		var le *runtime.LimitError
		if !errors.As(err, &le) || le.Limit != "MaxNestingDepth" || err.Error() != want {
			t.Errorf("%.40s: %v", src, err)
		}
	}
	// The limit is part of the cache key: a program prepared under a
	// larger limit is not reused under a smaller one.
	src := "export default () => " + strings.Repeat("[", 50) + strings.Repeat("]", 50)
	e.ok(spec{src: src})
	if _, err := e.prepareErr(spec{src: src, limits: runtime.Limits{MaxNestingDepth: 20}}); err == nil {
		t.Errorf("a cached program bypassed a smaller MaxNestingDepth")
	}
}

// crashCases are inputs that overflowed the Go stack (a fatal error that
// kills the process) before the nesting checks. Each runs in a child
// process, so a regression fails the test instead of killing the test
// binary.
var crashCases = map[string]struct {
	src, file, stdout, prepareErr string
	bigHeap                       bool // 1e6 nested arrays (what overflowed the stack) take more than the default MaxMemoryBytes
}{
	"json.parse": {src: `try { JSON.parse('['.repeat(3e6) + ']'.repeat(3e6)) } catch (e) { console.log(e.name + ': ' + e.message) }`,
		stdout: "SyntaxError: JSON text " + nestMsg + " (at byte 1000) " + nestLimit},
	"eval": {src: `try { eval('['.repeat(1e6) + ']'.repeat(1e6)) } catch (e) { console.log(e.name + ': ' + e.message) }`,
		stdout: "SyntaxError: eval source " + nestMsg + " (at 1:1001) " + nestLimit},
	"function": {src: `try { new Function('return ' + '!'.repeat(1e6) + '1') } catch (e) { console.log(e.name + ': ' + e.message) }`,
		stdout: "SyntaxError: Function source " + nestMsg + " (at 3:1004) " + nestLimit},
	"string of nested arrays": {src: `let a = []; for (let i = 0; i < 1e6; i++) a = [a]; try { String(a) } catch (e) { console.log(e.name + ': ' + e.message) }`,
		stdout: "RangeError: an array converted to a string " + nestMsg + " " + nestLimit, bigHeap: true},
	"json.stringify": {src: `let a = []; for (let i = 0; i < 1e6; i++) a = [a]; try { JSON.stringify(a) } catch (e) { console.log(e.name + ': ' + e.message) }`,
		stdout: "RangeError: a value given to JSON.stringify " + nestMsg + " " + nestLimit, bigHeap: true},
	"flat": {src: `let a = [1]; for (let i = 0; i < 1e6; i++) a = [a]; console.log(a.flat(Infinity).length)`,
		stdout: "1", bigHeap: true},
	"module": {src: "export default () => " + strings.Repeat("[", 450_000) + strings.Repeat("]", 450_000),
		prepareErr: "/workspace/main.ts " + nestMsg + " (at 1:1021) " + nestLimit},
	"json module": {src: `import d from "./deep.json"; export default () => d`, file: strings.Repeat("[", 450_000) + strings.Repeat("]", 450_000),
		prepareErr: "/workspace/deep.json " + nestMsg + " (at byte 1000) " + nestLimit},
}

func TestNestingCrashRepros(t *testing.T) {
	for name, c := range crashCases {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			cmd := childproc.Start(t, "NOOK_JS_CRASH="+name, "NOOK_JS_OUT="+out)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("the child process died: %v", err)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			got := string(b)
			want := "stdout: " + c.stdout + "\n"
			if c.prepareErr != "" {
				want = "prepare: " + c.prepareErr
			}
			if got != want {
				t.Errorf("got  %q\nwant %q", got, want)
			}
		})
	}
}

// crashChild runs one of crashCases (in the child process) and writes
// what it printed, or Prepare's error, to the file out.
func crashChild(name, out string) {
	childproc.Ready()
	c := crashCases[name]
	ctx := context.Background()
	ws, err := nook.OpenMemory(ctx)
	if err != nil {
		panic(err)
	}
	defer ws.Close()
	if c.file != "" {
		if err := ws.FS().WriteFile(ctx, "/workspace/deep.json", []byte(c.file), &vfs.WriteOptions{MkdirAll: true}); err != nil {
			panic(err)
		}
	}
	b := js.New(js.Options{})
	limits := runtime.Limits{}
	if c.bigHeap {
		limits.MaxMemoryBytes = 1 << 30
	}
	req := &runtime.Request{ID: "c", Source: c.src, Cwd: "/workspace", Limits: limits.WithDefaults()}
	p, err := b.Prepare(ctx, ws.FS(), req)
	if err != nil {
		os.WriteFile(out, []byte("prepare: "+err.Error()), 0o644)
		return
	}
	var stdout strings.Builder
	host := runtime.NewHost(runtime.HostConfig{FS: ws.FS(), Root: "/workspace", RunID: "c",
		Output: func(s runtime.Stream, p []byte) error {
			if s == runtime.Stdout {
				stdout.Write(p)
			}
			return nil
		}})
	ex := p.Run(ctx, host)
	os.WriteFile(out, []byte(fmt.Sprintf("stdout: %s%v", stdout.String(), errString(ex.Err))), 0o644)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return "error: " + err.Error()
}
