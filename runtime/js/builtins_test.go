package js_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	nookrt "github.com/nookdev/nook/runtime"
)

// The guarded JSON.stringify gives what the built-in gives (goja's own
// indentation of an array in an array included).
func TestStringifySemantics(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
const out = [];
const o = { b: 1, a: [1, 'x', null, undefined, () => 1, { c: true }], d: undefined, e: new Date(0), f: { toJSON(k) { return 'k=' + k; } },
  g: new Number(3), h: new String('s'), i: new Boolean(false), j: '\u0001"\\\n' };
out.push(JSON.stringify(o));
out.push(JSON.stringify(o, null, 2));
out.push(JSON.stringify(o, null, '--'));
out.push(JSON.stringify(o, ['j', 'a', 'c', 'a', 1, new String('b')]));
out.push(JSON.stringify(o, function (k, v) { return typeof v === 'number' ? v * 10 : v; }));
out.push(JSON.stringify([[], {}, [[]]], null, 1));
out.push(String(JSON.stringify(undefined)), String(JSON.stringify(() => 1)), JSON.stringify('x'), JSON.stringify(1e21), JSON.stringify(-0));
const cyc = { a: {} }; cyc.a.b = cyc;
try { JSON.stringify(cyc); } catch (e) { out.push(e.name); }
try { JSON.stringify({ n: 1n }); } catch (e) { out.push(e.name); }
out.push(JSON.stringify.name + JSON.stringify.length, [1, [2, [3]]].join(';'), String([1, [2, [3, []]]]), [[1, [2]], 3].flat(Infinity).join());
console.log(out.join('\n'));`})
	want := `{"b":1,"a":[1,"x",null,null,null,{"c":true}],"e":"1970-01-01T00:00:00.000Z","f":"k=f","g":3,"h":"s","i":false,"j":"\u0001\"\\\n"}
{
  "b": 1,
  "a": [
    1,
    "x",
    null,
    null,
    null,
    {
      "c": true
    }
  ],
  "e": "1970-01-01T00:00:00.000Z",
  "f": "k=f",
  "g": 3,
  "h": "s",
  "i": false,
  "j": "\u0001\"\\\n"
}
{
--"b": 1,
--"a": [
----1,
----"x",
----null,
----null,
----null,
----{
------"c": true
----}
--],
--"e": "1970-01-01T00:00:00.000Z",
--"f": "k=f",
--"g": 3,
--"h": "s",
--"i": false,
--"j": "\u0001\"\\\n"
}
{"j":"\u0001\"\\\n","a":[1,"x",null,null,null,{"c":true}],"b":1}
{"b":10,"a":[10,"x",null,null,null,{"c":true}],"e":"1970-01-01T00:00:00.000Z","f":"k=f","g":3,"h":"s","i":false,"j":"\u0001\"\\\n"}
[
 [],
 {},
 [
    []
   ]
]
undefined
undefined
"x"
1e+21
0
TypeError
TypeError
stringify3
1;2,3
1,2,3,
1,2,3
`
	if r.stdout != want {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

// settled waits (a few seconds at most) until the host is idle and small
// again after a runaway run: no goroutine more than before it, and a live
// heap back under before plus slack.
func settled(t *testing.T, goroutines int, heap uint64) {
	t.Helper()
	const slack = 64 << 20
	var g int
	var h uint64
	for range 250 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		g, h = runtime.NumGoroutine(), ms.HeapAlloc
		if g <= goroutines && h < heap+slack {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("the host did not settle: %d goroutines (before: %d), %d MiB of heap (before: %d MiB)", g, goroutines, h>>20, heap>>20)
}

func baseline() (int, uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return runtime.NumGoroutine(), ms.HeapAlloc
}

// Built-ins whose work grows with their input stop at MaxAllocBytes
// before they start; the host is idle and small right after, and a
// healthy run completes.
func TestBuiltinGuards(t *testing.T) {
	e := newEnv(t)
	e.ok(spec{src: normal, input: "7"}) // warm up: the goroutines a run leaves (the database's) exist
	for _, src := range []string{
		`let o = [1]; for (let i = 0; i < 30; i++) o = [o, o]; JSON.stringify(o)`,
		`JSON.stringify({ a: 'x'.repeat(1 << 19) }, null, 0) + JSON.stringify(['x'.repeat(1 << 19), 'x'.repeat(1 << 19)])`,
		`JSON.stringify(1, Object.assign([], { length: 2 ** 30 }))`,
		`Array.prototype.sort.call({ length: 2 ** 30 })`,
		`Array.prototype.reverse.call({ length: 2 ** 30 })`,
		`Array.prototype.copyWithin.call({ length: 2 ** 30 }, 0, 1)`,
		`Array.prototype.indexOf.call({ length: 2 ** 50 }, 1)`,
		`Array.prototype.lastIndexOf.call({ length: 2 ** 50 }, 1)`,
		`Array.prototype.includes.call({ length: 2 ** 50 }, 1)`,
		`Array.prototype.join.call({ length: 2 ** 30 }, '')`,
		`Array.prototype['fl' + 'at'].call({ length: 2 ** 40 })`,
		`[].concat(new Array(2 ** 31))`,
		`Object.keys('x'.repeat(1 << 20))`,
		`Object.values(new Uint8Array(1 << 20))`,
		`Object.entries('x'.repeat(1 << 20))`,
		`'x'.repeat(1 << 20).split('')`,
		`'a,'.repeat(1 << 19).split(',')`,
		`Array.from('x'.repeat(1 << 20))`,
	} {
		g, h := baseline()
		r := e.run(spec{src: src, limits: nookrt.Limits{MaxAllocBytes: 1 << 20}})
		wantLimit(t, r, "MaxAllocBytes")
		settled(t, g, h)
		e.ok(spec{src: normal, input: "7"})
	}
}

// Spreads and Array.from of iterables whose length is known stop before
// they make a value per element past MaxMemoryBytes.
func TestIteratorGuards(t *testing.T) {
	e := newEnv(t)
	e.ok(spec{src: normal, input: "7"})
	for _, src := range []string{
		`[...new Array(2 ** 31)]`,
		`[...'x'.repeat(1 << 20)]`,
		`Array.from(new Array(2 ** 31))`,
		`[...new Uint8Array(1 << 20)]`,
		`Math.max(...new Array(2 ** 31))`,
	} {
		g, h := baseline()
		r := e.run(spec{src: src, limits: nookrt.Limits{MaxMemoryBytes: 8 << 20}})
		wantLimit(t, r, "MaxMemoryBytes")
		settled(t, g, h)
	}
	r := e.ok(spec{src: `
const a = [...'héllo'], b = [...[1, , 3]], c = Array.from(new Uint8Array([1, 2]));
let n = 0;
for (const x of new Set([1, 2])) n += x;
for (const [i, x] of ['a', 'b'].entries()) n += i;
console.log(a.join(''), b.length, c.join(), n, [][Symbol.iterator] === [].values, [].values.name, ''[Symbol.iterator].name);`})
	if r.stdout != "héllo 3 1,2 4 true values [Symbol.iterator]\n" {
		t.Errorf("stdout: %q", r.stdout)
	}
}

// Nesting that built-ins would follow on the Go stack is a catchable
// RangeError naming MaxNestingDepth.
func TestBuiltinNesting(t *testing.T) {
	e := newEnv(t)
	r := e.ok(spec{src: `
let a = [], o = {};
for (let i = 0; i < 5000; i++) { a = [a]; o = { o }; }
for (const f of [() => String(a), () => a.join(), () => JSON.stringify(a), () => JSON.stringify(o), () => JSON.stringify({ x: o }, (k, v) => v)]) {
  try { f(); console.log('no error'); } catch (e) { console.log(e.name + ': ' + e.message); }
}
console.log(a.flat(Infinity).length, a.flat(2e9).length);`})
	want := strings.Repeat("RangeError: an array converted to a string "+nestMsg+" "+nestLimit+"\n", 2) +
		strings.Repeat("RangeError: a value given to JSON.stringify "+nestMsg+" "+nestLimit+"\n", 3) +
		"1 1\n"
	if r.stdout != want {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

// A serialisation that would run for minutes (2^30 values) under a large
// MaxAllocBytes ends with its run's timeout: the run's goroutine ends too,
// and the host is idle and small again.
func TestStringifyEndsWithItsRun(t *testing.T) {
	e := newEnv(t)
	e.ok(spec{src: normal, input: "7"})
	g, h := baseline()
	r := e.run(spec{src: `let o = [1]; for (let i = 0; i < 30; i++) o = [o, o]; JSON.stringify(o)`,
		limits: nookrt.Limits{MaxAllocBytes: 1 << 40, MaxMemoryBytes: 1 << 40}, timeout: 300 * time.Millisecond})
	var le *nookrt.LimitError
	if r.exit.Code != 1 || errors.As(r.exit.Err, &le) {
		t.Fatalf("exit %+v", r.exit)
	}
	settled(t, g, h)
	e.ok(spec{src: normal, input: "7"})
}
