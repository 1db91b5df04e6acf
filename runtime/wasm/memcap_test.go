package wasm_test

import (
	"bytes"
	"os"
	goruntime "runtime"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"github.com/nookdev/nook/internal/tiertest"
	"github.com/nookdev/nook/runtime"
)

// growModule is a WASI command that grows its memory a page at a time,
// filling each new page, until memory.grow returns -1; then it exits with
// its memory's size in pages divided by 256 (16 at the 4096-page cap).
func growModule() []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = section(m, 1, []byte{2, 0x60, 0, 0, 0x60, 1, 0x7f, 0}) // [] -> [], [i32] -> []
	imp := []byte{1}
	imp = append(imp, byte(len("wasi_snapshot_preview1")))
	imp = append(imp, "wasi_snapshot_preview1"...)
	imp = append(imp, byte(len("proc_exit")))
	imp = append(imp, "proc_exit"...)
	imp = append(imp, 0, 1) // a function of type 1
	m = section(m, 2, imp)
	m = section(m, 3, []byte{1, 0}) // function 1 (_start): type 0
	m = section(m, 5, []byte{1, 0, 1})
	m = section(m, 7, []byte("\x01\x06_start\x00\x01"))
	code := []byte{1, 0x7f} // one i32 local: the old size
	code = append(code,
		0x03, 0x40, // loop
		0x41, 0x01, 0x40, 0x00, 0x22, 0x00, // memory.grow 1, local.tee 0
		0x41, 0x7f, 0x46, // == -1
		0x04, 0x40, 0x3f, 0x00, 0x41, 0x08, 0x76, 0x10, 0x00, 0x0b, // if: proc_exit(memory.size >> 8)
		0x20, 0x00, 0x41, 0x10, 0x74, // old size << 16: the new page
		0x41, 0x01, 0x41, 0x80, 0x80, 0x04, 0xfc, 0x0b, 0x00, // memory.fill(page, 1, 65536)
		0x0c, 0x00, // br 0
		0x0b, 0x0b)
	body := append([]byte{1}, code...)
	body = append([]byte(nil), body...)
	fn := uleb(nil, uint64(len(body)))
	return section(m, 10, append([]byte{1}, append(fn, body...)...))
}

func rss(t testing.TB) int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm")
	}
	n, _ := strconv.ParseInt(string(bytes.Fields(b)[1]), 10, 64)
	return n * int64(os.Getpagesize())
}

// A guest that grows its memory to the cap (4096 pages: the default
// MaxMemoryBytes of 256 MiB) and touches all of it gets what WebAssembly
// says, memory.grow returning -1, in both tiers: the worker of the
// process tier is not killed for the runtime's own memory beside the
// guest's, and in process the guest's memory is returned when it ends.
func TestGuestReachesMemoryCap(t *testing.T) {
	ws := openWS(t)
	debug.FreeOSMemory()
	rss0 := rss(t)
	g0 := goruntime.NumGoroutine()
	for i := 0; i < 2; i++ {
		t0 := time.Now()
		res := runSource(t, ws, string(growModule()), runtime.ExecOptions{Timeout: 60 * time.Second})
		t.Logf("run %d: %v", i, time.Since(t0))
		if res.Status != runtime.StatusFailed || res.ExitCode != 16 {
			t.Fatalf("status %s exit %d error %q stderr %q: want exit 16 (memory.grow returned -1 at 4096 pages)",
				res.Status, res.ExitCode, res.Error, res.Stderr)
		}
	}
	if tiertest.Pool != nil {
		return
	}
	var ms goruntime.MemStats
	for i := 0; ; i++ {
		debug.FreeOSMemory()
		goruntime.ReadMemStats(&ms)
		r, g := rss(t), goruntime.NumGoroutine()
		if r < rss0+32<<20 && g <= g0+2 {
			break
		}
		if i == 50 {
			t.Fatalf("host did not settle: RSS %d MiB (before %d MiB), %d goroutines (before %d)", r>>20, rss0>>20, g, g0)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
