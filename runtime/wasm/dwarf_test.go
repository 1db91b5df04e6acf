package wasm_test

import (
	"strings"
	"testing"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/wasm"
)

// A trap names the source line of the instruction that trapped, though
// the rewrite moved it: here a loop (which gets a fuel check) comes before
// an unreachable at line 42 of guest.c.
func TestTrapNamesItsLine(t *testing.T) {
	// Code section content: count, size, then the body at offset 2:
	// locals (2), loop (3) end (5), i32.const 1 (6), if (8), unreachable
	// (10), end (11), end (12).
	b := body([]byte{0x03, 0x40, 0x0b}, i32(1), []byte{0x04, 0x40, 0x00, 0x0b})
	m := bombModule([][]byte{b}, nil, nil)
	dw := wasm.DWARFSections("guest.c", nil, 13, "guest.c", []int{10, 42, 50}, []uint32{3, 10, 11})
	for _, k := range []string{".debug_abbrev", ".debug_info", ".debug_line"} {
		cs := append(uleb(nil, uint64(len(k))), k...)
		m = section(m, 0, append(cs, dw[k]...))
	}
	checked := wasm.New(wasm.Options{ID: "checked", Interrupt: wasm.InterruptChecked})
	ws := openWSB(t, []runtime.Backend{backend, checked})
	for _, id := range []string{"wasm", "checked"} {
		res := runSource(t, ws, string(m), runtime.ExecOptions{Backend: id})
		if res.Status != runtime.StatusFailed || !strings.Contains(string(res.Stderr), "0xa: guest.c:42\n") ||
			strings.Contains(res.Error, "nook-rewritten") || !strings.Contains(res.Error, "guest.c:42") {
			t.Fatalf("%s: %s\nerror: %s\nstderr: %s", id, res.Status, res.Error, res.Stderr)
		}
	}
}
