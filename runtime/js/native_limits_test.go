package js_test

import (
	goruntime "runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
)

// Single native calls that goja cannot interrupt are refused before they
// allocate: an allocation guard's bound is MaxAllocBytes or MaxMemoryBytes,
// whichever is smaller (named in the error), and replace/replaceAll with
// a string pattern bound their result and goja's record of each match.
// After each, the host is idle and small again.
func TestNativeCallsBoundedByMemory(t *testing.T) {
	big := shellWS(t, nook.WithRuntime(runtime.Options{Limits: runtime.Limits{MaxAllocBytes: 1 << 30}}))
	def := shellWS(t)
	cases := []struct {
		name string
		ws   *nook.Workspace
		src  string
		want string
	}{
		{"repeat past the memory limit", big, `'x'.repeat(2**29)`,
			"string of 536870912 bytes exceeds the limit MaxMemoryBytes (268435456)"},
		{"fill past the memory limit", big, `new Array(1e8).fill(0)`,
			"array of 100000000 elements of 800000000 bytes exceeds the limit MaxMemoryBytes (268435456)"},
		{"join past the memory limit", big, `new Array(5e7).join("abcdefgh")`,
			"array of 50000000 elements of 400000000 bytes exceeds the limit MaxMemoryBytes (268435456)"},
		{"replaceAll of many matches", def, `'x'.repeat(6e7).replaceAll('x', 'yyyy')`,
			"a replacement of 60000000 matches (its result and a record of each match) of 4080000000 bytes exceeds the limit MaxAllocBytes (67108864)"},
		{"replaceAll inserting the prefix", def, "'x'.repeat(1e5).replaceAll('x', '$`')",
			"a replacement of 100000 matches (its result and a record of each match) of 10006600000 bytes exceeds the limit MaxAllocBytes (67108864)"},
	}
	for _, ws := range []*nook.Workspace{big, def} { // warm: the process tier's workers start
		runWS(t, ws, "export default () => 1", runtime.ExecOptions{})
	}
	g0 := goruntime.NumGoroutine()
	debug.FreeOSMemory()
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	heap0 := ms.HeapInuse
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The error is the guard's, which runs before the call
			// allocates (a call that had begun would fail on the memory
			// watchdog or the timeout instead): no clock is needed to
			// tell.
			res := runWS(t, c.ws, "export default () => "+c.src+".length", runtime.ExecOptions{Timeout: 20 * time.Second})
			if res.Status != runtime.StatusFailed || res.Error != c.want {
				t.Fatalf("status %s error %q, want failed with %q\nstderr %s", res.Status, res.Error, c.want, res.Stderr)
			}
		})
	}
	for i := 0; ; i++ {
		debug.FreeOSMemory()
		goruntime.ReadMemStats(&ms)
		g := goruntime.NumGoroutine()
		if g <= g0+2 && ms.HeapInuse < heap0+32<<20 {
			break
		}
		if i == 50 {
			t.Fatalf("host did not settle: %d goroutines (before %d), heap %d MiB (before %d MiB)", g, g0, ms.HeapInuse>>20, heap0>>20)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
