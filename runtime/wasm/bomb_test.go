package wasm_test

import (
	"bytes"
	"context"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
)

// uleb appends v as an unsigned LEB128.
func uleb(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// section appends a section with its id and size.
func section(b []byte, id byte, body []byte) []byte {
	b = append(b, id)
	b = uleb(b, uint64(len(body)))
	return append(b, body...)
}

// bombModule returns a WASI command (_start is function 0) whose functions
// have the given bodies, with the memory section mem (default: one page)
// and the table section table (default: none).
func bombModule(bodies [][]byte, mem, table []byte) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = section(m, 1, []byte{1, 0x60, 0, 0}) // type 0: [] -> []
	funcs := uleb(nil, uint64(len(bodies)))
	for range bodies {
		funcs = append(funcs, 0)
	}
	m = section(m, 3, funcs)
	if table != nil {
		m = section(m, 4, table)
	}
	if mem == nil {
		mem = []byte{1, 0, 1}
	}
	m = section(m, 5, mem)
	m = section(m, 7, []byte("\x01\x06_start\x00\x00"))
	code := uleb(nil, uint64(len(bodies)))
	for _, b := range bodies {
		code = uleb(code, uint64(len(b)))
		code = append(code, b...)
	}
	return section(m, 10, code)
}

func repeat(b []byte, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}

// Compile bombs: tiny modules that would take wazero's compiler minutes
// and gigabytes (measured before the limits: 2^32 locals in 47 bytes ran
// for 10 minutes at 3.4 GB; 100,000 nested blocks in 300 KB, 67 s). Each is
// refused before compiling, at once and without growing the heap.
func TestCompileBombs(t *testing.T) {
	nested := func(depth int) []byte { // block × depth, end × depth
		b := []byte{0}
		b = append(b, bytes.Repeat([]byte{0x02, 0x40}, depth)...)
		b = append(b, bytes.Repeat([]byte{0x0b}, depth)...)
		return append(b, 0x0b)
	}
	locals := func(n uint64) []byte {
		return append(uleb([]byte{1}, n), 0x7e, 0x0b)
	}
	brTable := func(n int) []byte { // block (br_table 0 ... 0 (i32.const 0)) end
		b := []byte{0, 0x02, 0x40, 0x41, 0x00, 0x0e}
		b = uleb(b, uint64(n))
		b = append(b, bytes.Repeat([]byte{0}, n+1)...)
		return append(b, 0x0b, 0x0b)
	}
	empty := []byte{0, 0x0b}
	cases := []struct {
		name, bin, want string
	}{
		{"4G locals", string(bombModule([][]byte{locals(1<<32 - 1)}, nil, nil)), "more than 50000 locals"},
		{"deep nesting", string(bombModule([][]byte{nested(20_001)}, nil, nil)), "nests more than 20000 blocks"},
		{"nesting in many functions", string(bombModule(repeat(nested(15_000), 10), nil, nil)), "block nesting would take too long"},
		{"huge br_table", string(bombModule([][]byte{brTable(100_001)}, nil, nil)), "more than 100000 targets"},
		{"br_tables in many functions", string(bombModule(repeat(brTable(90_000), 2), nil, nil)), "br_tables would take too long"},
		{"many functions", string(bombModule(repeat(empty, 250_001), nil, nil)), "more than 250000 functions"},
		{"huge function", string(bombModule([][]byte{append(bytes.Repeat([]byte{0x01}, 7_654_321), 0x0b)}, nil, nil)), "exceeds the limit of 7654321 bytes"},
		{"huge memory", string(bombModule([][]byte{empty}, []byte{1, 0, 0x80, 0x80, 0x04}, nil)), "over limit of 4096 pages"},
		{"huge table", string(bombModule([][]byte{empty}, nil, []byte{1, 0x70, 0, 0xff, 0xff, 0xff, 0xff, 0x07})), "table min must be at most"},
	}
	ws := openWS(t)
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			debug.FreeOSMemory()
			var before, after goruntime.MemStats
			goruntime.ReadMemStats(&before)
			start := time.Now()
			_, err := ws.Runtime().Exec(ctx, c.bin, runtime.ExecOptions{Backend: "wasm"})
			took := time.Since(start)
			goruntime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("%d bytes: err %v, want one saying %q", len(c.bin), err, c.want)
			}
			grew := int64(after.HeapInuse) - int64(before.HeapInuse)
			if took > 5*time.Second || grew > 256<<20 {
				t.Fatalf("%d bytes refused in %v, heap grew by %d MB", len(c.bin), took, grew>>20)
			}
			t.Logf("%d bytes refused in %v: %v", len(c.bin), took, err)
		})
	}
	// Modules at the limits still compile (here, in a few seconds).
	if testing.Short() {
		return
	}
	for _, bin := range [][]byte{bombModule([][]byte{nested(20_000)}, nil, nil), bombModule([][]byte{brTable(100_000)}, nil, nil)} {
		start := time.Now()
		h, err := ws.Runtime().Exec(ctx, string(bin), runtime.ExecOptions{Backend: "wasm"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := h.Result(ctx)
		if err != nil || res.Status != runtime.StatusCompleted {
			t.Fatalf("%v %+v", err, res)
		}
		t.Logf("%d bytes at the limits: compiled and ran in %v", len(bin), time.Since(start))
	}
}
