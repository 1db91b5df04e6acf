package js_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
)

// normal is a small program that must complete while a runaway run
// shares the process.
const normal = `
export default async (input) => {
  let s = 0;
  for (let i = 0; i < 1000; i++) s += i;
  await new Promise((r) => setTimeout(r, 20));
  const parts = [];
  for (let i = 0; i < 100; i++) parts.push("p" + i);
  return { s, n: parts.join(",").length, input };
};`

const normalValue = `{"s":499500,"n":389,"input":7}`

// runWithNeighbour runs bad and, at the same time, a normal program, and
// returns bad's result after checking the normal one.
func runWithNeighbour(t *testing.T, e *env, bad spec) result {
	t.Helper()
	var wg sync.WaitGroup
	var good result
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond)
		good = e.run(spec{src: normal, input: "7"})
	}()
	r := e.run(bad)
	wg.Wait()
	if good.exit.Code != 0 || good.value() != normalValue {
		t.Errorf("the neighbouring run failed: %+v %s %s", good.exit, good.value(), good.stderr)
	}
	return r
}

func wantLimit(t *testing.T, r result, limit string) {
	t.Helper()
	var le *runtime.LimitError
	if r.exit.Code != 1 || !errors.As(r.exit.Err, &le) || le.Limit != limit {
		t.Fatalf("want limit %s, got exit %+v\nstderr: %s", limit, r.exit, r.stderr)
	}
	if !strings.Contains(r.stderr, limit) {
		t.Errorf("stderr does not name %s: %q", limit, r.stderr)
	}
}

func TestTimeoutStopsInfiniteLoop(t *testing.T) {
	e := newEnv(t)
	start := time.Now()
	r := runWithNeighbour(t, e, spec{src: `while (true) {}`, timeout: 200 * time.Millisecond})
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	if r.exit.Code == 0 || !errors.Is(r.exit.Err, context.DeadlineExceeded) {
		t.Errorf("exit = %+v", r.exit)
	}
	// Waiting on a timer: the run returns at once too.
	start = time.Now()
	r = e.run(spec{src: `await new Promise((r) => setTimeout(r, 60000));`, timeout: 100 * time.Millisecond})
	if d := time.Since(start); d > time.Second || !errors.Is(r.exit.Err, context.DeadlineExceeded) {
		t.Errorf("timer wait: %v %+v", d, r.exit)
	}
}

func TestAllocLimit(t *testing.T) {
	e := newEnv(t)
	for _, src := range []string{
		`const s = 'x'.repeat(2 ** 30);`,
		`try { new Array(1e9).fill(0) } catch (e) { console.log("caught", e.message) }`,
		`"".padStart(2 ** 30)`,
		`new Uint8Array(2 ** 31)`,
		`Buffer.alloc(2 ** 30)`,
		`new ArrayBuffer(2 ** 30)`,
		`Array.from({ length: 1e9 })`,
	} {
		r := runWithNeighbour(t, e, spec{src: src})
		wantLimit(t, r, "MaxAllocBytes")
		if strings.Contains(r.stdout, "caught") {
			t.Errorf("%s: the limit was catchable", src)
		}
	}
}

func TestStackLimit(t *testing.T) {
	e := newEnv(t)
	r := runWithNeighbour(t, e, spec{src: `
function f(n) { return f(n + 1) + 1 }
try { f(0) } catch (e) { console.log("caught") }`, limits: runtime.Limits{MaxStackDepth: 1000}})
	wantLimit(t, r, "MaxStackDepth")
	if strings.Contains(r.stdout, "caught") {
		t.Errorf("stack overflow was catchable")
	}
}

func TestOutputLimit(t *testing.T) {
	e := newEnv(t)
	r := runWithNeighbour(t, e, spec{src: `for (;;) console.log("flood flood flood")`, maxOut: 1 << 16})
	var le *runtime.LimitError
	if r.exit.Code != 1 || !errors.As(r.exit.Err, &le) || le.Limit != "MaxOutputBytes" {
		t.Fatalf("exit %+v", r.exit)
	}
}

func TestRegexpLimit(t *testing.T) {
	e := newEnv(t)
	start := time.Now()
	r := runWithNeighbour(t, e, spec{src: `
let found;
try { found = /(a*)*\1b/.test('a'.repeat(40)) } catch (e) { console.log("caught") }
console.log("found", found);`})
	wantLimit(t, r, "RegexpMatchTimeout")
	if strings.Contains(r.stdout, "found") {
		t.Errorf("the program went on: %s", r.stdout)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	// Ordinary regexps with backreferences still work, through every path.
	r = e.ok(spec{src: `export default () => ["aa-bb".replace(/(\w)\1/g, "<$1>"), "x1y2".split(/(?=\d)/), /(?<=a)b/.exec("ab")[0], "abab".match(/(ab)\1/)[1]]`})
	if r.value() != `["<a>-<b>",["x","1y","2"],"b","ab"]` {
		t.Errorf("value = %s", r.value())
	}
}

func TestMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates hundreds of MiB")
	}
	e := newEnv(t)
	r := runWithNeighbour(t, e, spec{src: `
let s = "x";
for (;;) s += s;`, limits: runtime.Limits{MaxMemoryBytes: 64 << 20, MaxAllocBytes: 1 << 30}})
	wantLimit(t, r, "MaxMemoryBytes")
	r = runWithNeighbour(t, e, spec{src: `
const a = [];
for (let i = 0; ; i++) a.push({ i, s: "item" + i });`, limits: runtime.Limits{MaxMemoryBytes: 64 << 20}})
	wantLimit(t, r, "MaxMemoryBytes")
}
