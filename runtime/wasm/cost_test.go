package wasm_test

import (
	"context"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/wasm"
)

// Instructions for hand-assembled test modules.
func i32(v int64) []byte { return append([]byte{0x41}, sleb(v)...) }

func sleb(v int64) []byte {
	var out []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(out, c)
		}
		out = append(out, c|0x80)
	}
}

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

var (
	loopForever = []byte{0x03, 0x40} // loop ... (br 0; end) closes it
	brEnd       = []byte{0x0c, 0x00, 0x0b}
	tableGrow0  = []byte{0xfc, 0x0f, 0x00}
	refNullFunc = []byte{0xd0, 0x70}
	drop        = []byte{0x1a}
	memFill     = []byte{0xfc, 0x0b, 0x00}
	memCopy     = []byte{0xfc, 0x0a, 0x00, 0x00}
	// unlessEq traps unless the two i32 on the stack are equal.
	unlessEq = []byte{0x47, 0x04, 0x40, 0x00, 0x0b}
)

// body is a function body without locals.
func body(code ...[]byte) []byte { return append(cat(append([]byte{0}, cat(code...)...)), 0x0b) }

// load is i32.load8_u at the address on the stack.
var load = []byte{0x2d, 0x00, 0x00}

// store stores the i32 v at address a.
func store(a, v int64) []byte { return cat(i32(a), i32(v), []byte{0x36, 0x02, 0x00}) }

// expect traps unless the i32 at a is v.
func expect(a, v int64) []byte { return cat(i32(a), []byte{0x28, 0x02, 0x00}, i32(v), unlessEq) }

// expect8 traps unless the byte at a is v.
func expect8(a, v int64) []byte { return cat(i32(a), load, i32(v), unlessEq) }

// heapInUse is the host's heap after a collection that returns memory to
// the OS.
func heapInUse() int64 {
	debug.FreeOSMemory()
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}

// The repros of issue 12: a loop of table.grow by a million reached 17 GB
// in 22 s and its timeout never fired; a loop of 256 MiB memory.fill ran on
// at 60 s. Each now ends timed out at its deadline, the host's heap is back
// to what it was, and a healthy run then completes.
func TestCostlyInstructionsStopAtTheDeadline(t *testing.T) {
	tableLoop := bombModule([][]byte{body(loopForever, refNullFunc, i32(1_000_000), tableGrow0, drop, brEnd)},
		nil, []byte{1, 0x70, 0, 0})
	fillLoop := bombModule([][]byte{body(loopForever, i32(0), i32(0), i32(256<<20), memFill, brEnd)},
		[]byte{1, 0, 0x80, 0x20}, nil) // 4096 pages: the default memory limit
	copyLoop := bombModule([][]byte{body(loopForever, i32(1), i32(0), i32(256<<20-1), memCopy, brEnd)},
		[]byte{1, 0, 0x80, 0x20}, nil)
	growLoop := bombModule([][]byte{body(loopForever, i32(1), []byte{0x40, 0x00}, drop, brEnd)}, nil, nil)
	checked := wasm.New(wasm.Options{ID: "checked", Interrupt: wasm.InterruptChecked})
	ws := openWSB(t, []runtime.Backend{backend, checked})
	ctx := context.Background()
	ok(t, run(t, ws, runtime.ExecOptions{}, "hello"))
	for _, b := range []string{"wasm", "checked"} {
		for name, bin := range map[string][]byte{"table.grow": tableLoop, "memory.fill": fillLoop,
			"memory.copy": copyLoop, "memory.grow": growLoop} {
			t.Run(b+"/"+name, func(t *testing.T) {
				before := heapInUse()
				const timeout = 300 * time.Millisecond
				h, err := ws.Runtime().Exec(ctx, string(bin), runtime.ExecOptions{Backend: b, Timeout: timeout})
				if err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				res, err := h.Result(ctx)
				past := time.Since(start) - timeout
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != runtime.StatusTimedOut {
					t.Fatalf("status %s, want timed_out: %s %s", res.Status, res.Error, res.Stderr)
				}
				// A sanity bound, not a performance claim: without the fix
				// these ran for minutes.
				if past > 2*time.Second {
					t.Fatalf("ended %v past its deadline", past)
				}
				if grew := heapInUse() - before; grew > 64<<20 {
					t.Fatalf("the heap is %d MB larger after the run", grew>>20)
				}
				t.Logf("ended %v past its deadline", past.Round(time.Millisecond))
				ok(t, run(t, ws, runtime.ExecOptions{Backend: b}, "hello"))
			})
		}
	}
}

// A start function (the start section) is stopped too: it runs after the
// backend can stop it.
func TestStartFunctionStops(t *testing.T) {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = section(m, 1, []byte{1, 0x60, 0, 0})
	m = section(m, 3, []byte{2, 0, 0})
	m = section(m, 5, []byte{1, 0, 1})
	m = section(m, 7, []byte("\x01\x06_start\x00\x00"))
	m = section(m, 8, []byte{1}) // start: function 1
	code := []byte{2}
	for _, b := range [][]byte{body(), body(loopForever, brEnd)} {
		code = uleb(code, uint64(len(b)))
		code = append(code, b...)
	}
	m = section(m, 10, code)
	ws := openWS(t)
	res := runSource(t, ws, string(m), runtime.ExecOptions{Timeout: 300 * time.Millisecond})
	if res.Status != runtime.StatusTimedOut {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
}

// Bulk memory instructions larger than the rewrite's chunk (1 MiB) keep
// their meaning: a fill, an overlapping copy either way, and an
// out-of-bounds one that traps as the instruction does, writing nothing.
func TestBulkMemoryInChunks(t *testing.T) {
	const mib = 1 << 20
	const s = 1 * mib     // source
	const n = 5*mib/2 + 3 // bytes copied
	marks := func(at int64) []byte {
		return cat(store(at, 11), store(at+mib+3, 22), store(at+n-4, 33))
	}
	checks := func(at int64) []byte {
		return cat(expect(at, 11), expect(at+mib+3, 22), expect(at+n-4, 33))
	}
	mem := []byte{1, 0, 96} // 96 pages: 6 MiB
	for name, code := range map[string][]byte{
		"fill": cat(i32(100), i32(7), i32(3*mib+5), memFill,
			expect8(99, 0), expect8(100, 7), expect8(100+mib, 7), expect8(100+3*mib+4, 7), expect8(100+3*mib+5, 0)),
		"copy up, overlapping":   cat(marks(s), i32(s+100), i32(s), i32(n), memCopy, checks(s+100)),
		"copy down, overlapping": cat(marks(s), i32(s-100), i32(s), i32(n), memCopy, checks(s-100)),
		"copy apart":             cat(marks(0), i32(n+10), i32(0), i32(n), memCopy, checks(n+10), checks(0)),
	} {
		t.Run(name, func(t *testing.T) {
			ws := openWS(t)
			ok(t, runSource(t, ws, string(bombModule([][]byte{body(code)}, mem, nil)), runtime.ExecOptions{}))
		})
	}
	// Out of bounds by one byte: the trap wazero reports, and nothing
	// written.
	ws := openWS(t)
	oob := bombModule([][]byte{body(i32(1), i32(9), i32(96*65536), memFill)}, mem, nil)
	res := runSource(t, ws, string(oob), runtime.ExecOptions{})
	if res.Status != runtime.StatusFailed || !strings.Contains(string(res.Stderr), "out of bounds memory access") {
		t.Fatalf("%s %s", res.Status, res.Stderr)
	}
}

// MaxTableElements: a table.grow past it returns -1, as a growth that fails
// does; a guest that cannot go on without it fails with an error naming
// the limit, and one that declares a larger table does not start.
func TestMaxTableElements(t *testing.T) {
	checked := wasm.New(wasm.Options{ID: "checked", Interrupt: wasm.InterruptChecked})
	ws := openWSB(t, []runtime.Backend{backend, checked},
		nook.WithRuntime(runtime.Options{Limits: runtime.Limits{MaxTableElements: 1000}}))
	table := []byte{1, 0x70, 0, 0}
	grow := func(n int64) []byte { return cat(refNullFunc, i32(n), tableGrow0) }
	size := []byte{0xfc, 0x10, 0x00}
	for _, b := range []string{"wasm", "checked"} {
		// Up to the limit, growth works; one more returns -1, and the guest
		// that handles it completes.
		handled := bombModule([][]byte{body(grow(600), i32(0), unlessEq, grow(400), i32(600), unlessEq,
			grow(1), i32(-1), unlessEq, size, i32(1000), unlessEq)}, nil, table)
		ok(t, runSource(t, ws, string(handled), runtime.ExecOptions{Backend: b}))

		// A guest that traps when its growth fails.
		fails := bombModule([][]byte{body(grow(1001), i32(-1), []byte{0x46, 0x04, 0x40, 0x00, 0x0b})}, nil, table)
		res := runSource(t, ws, string(fails), runtime.ExecOptions{Backend: b})
		want := "a table of 1001 elements exceeds the limit MaxTableElements (1000)"
		if res.Status != runtime.StatusFailed || !strings.HasPrefix(res.Error, want) || !strings.Contains(string(res.Stderr), want) {
			t.Fatalf("%s: %s %q\n%s", b, res.Status, res.Error, res.Stderr)
		}

		// A declared minimum over the limit.
		big := bombModule([][]byte{body()}, nil, []byte{1, 0x70, 0, 0xe9, 0x07}) // min 1001
		res = runSource(t, ws, string(big), runtime.ExecOptions{Backend: b})
		if res.Status != runtime.StatusFailed || res.Error != want {
			t.Fatalf("%s: declared: %s %q", b, res.Status, res.Error)
		}
	}
}

// The rewrite keeps the probe's behaviour for a start section and the
// costs of ordinary code: a Go guest runs as before (covered by every other
// test); here, a module without a memory is rewritten too (it gets one of
// no pages) and stops at its timeout.
func TestModuleWithoutMemoryStops(t *testing.T) {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = section(m, 1, []byte{1, 0x60, 0, 0})
	m = section(m, 3, []byte{1, 0})
	m = section(m, 7, []byte("\x01\x06_start\x00\x00"))
	b := body(loopForever, brEnd)
	m = section(m, 10, append(uleb([]byte{1}, uint64(len(b))), b...))
	ws := openWS(t)
	res := runSource(t, ws, string(m), runtime.ExecOptions{Timeout: 300 * time.Millisecond})
	if res.Status != runtime.StatusTimedOut {
		t.Fatalf("status %s: %s", res.Status, res.Error)
	}
}
