package shell_test

import (
	"context"
	goruntime "runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
)

// The worst inputs of the interpreter itself: each stops with the limit it
// reached, after which the host is idle and small and a healthy run works.
func TestWorstInputs(t *testing.T) {
	lim := runtime.Limits{MaxAllocBytes: 1 << 20, MaxProcesses: 16, MaxDirEntries: 50}
	files := map[string]string{}
	for i := 0; i < 60; i++ {
		files["big/f"+itoa(i)] = "x"
	}
	ws := openWSLimits(t, files, lim, shell.Options{MaxLoopIterations: 10_000})
	alloc := "exceeds the limit MaxAllocBytes (1048576)"
	cases := []struct{ name, script, what, limit string }{
		{"substitution of a pipeline", "x=$(yes | head -c 1000000000); echo ${#x}", "command substitution output of", alloc},
		{"substitution of /dev/zero", "x=$(</dev/zero); echo ${#x}", "command substitution output of", alloc},
		{"substitution of a builtin loop", "x=$(printf %0200d 0); x=$(while :; do echo $x; done)", "command substitution output of", alloc},
		{"here-document", "cat <<EOF\n$(yes)\nEOF", "command substitution output of", alloc},
		{"assignments without a loop", "x=0123456789abcdef; x=$x$x$x$x$x$x$x$x; x=$x$x$x$x$x$x$x$x; x=$x$x$x$x$x$x$x$x; " +
			"x=$x$x$x$x$x$x$x$x; x=$x$x$x$x$x$x$x$x; x=$x$x$x$x$x$x$x$x; x=$x$x$x$x$x$x$x$x; echo ${#x}", "shell variables of more than", alloc},
		{"local assignments", "f() { local y=$1$1$1$1$1$1$1$1; f $y; }; f 0123456789abcdef", "", alloc},
		{"pattern substitution", "x=$(printf %02000d 0); y=${x//0/$x}; echo ${#y}", "a pattern substitution of 2000 bytes with a replacement of 2000 bytes", alloc},
		{"read a line without end", "read x < /dev/zero; echo ${#x}", "a line read by read of more than", alloc},
		{"mapfile without end", "yes | mapfile a", "input of mapfile of more than", alloc},
		{"fork bomb", "f() { f | f; }; f", "concurrent pipeline stages and background jobs", "exceeds the limit MaxProcesses (16)"},
		{"pipeline recursion", "f() { f | cat; }; f", "concurrent pipeline stages and background jobs", "exceeds the limit MaxProcesses (16)"},
		{"background fork bomb", "f() { f & f; }; f", "concurrent pipeline stages and background jobs", "exceeds the limit MaxProcesses (16)"},
		{"recursion", "f() { f; }; f", "nested shell function calls", "exceeds the limit MaxFunctionDepth (1000)"},
		{"loop in eval", "eval 'while :; do :; done'", "loop iteration", "exceeds the limit MaxLoopIterations (10000)"},
		{"deep eval", `eval "$(printf '(%.0s' {1..5000})true$(printf ')%.0s' {1..5000})"`, "a script nested 5000 brackets deep", "exceeds the limit MaxNestingDepth (1000)"},
		{"deep bash -c", `bash -c "$(printf '{ %.0s' {1..5000})"`, "a script nested 5000 brackets deep", "exceeds the limit MaxNestingDepth (1000)"},
		{"glob of a large directory", "echo big/*", "directory /workspace/big matched by a glob", "exceeds the limit MaxDirEntries (50)"},
	}
	g0, heap0 := baseline(t, ws)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, ws, c.script, runtime.ExecOptions{Timeout: 30 * time.Second})
			if r.Status != runtime.StatusFailed || !strings.Contains(r.Error, c.what) || !strings.HasSuffix(r.Error, c.limit) {
				t.Fatalf("status %s error %q, want failed with %q...%q; stderr %q", r.Status, r.Error, c.what, c.limit, r.Stderr)
			}
			if !strings.Contains(string(r.Stderr), c.limit) {
				t.Errorf("stderr %q does not name the limit", r.Stderr)
			}
			hostSettles(t, g0, heap0)
			if r := run(t, ws, "echo ok"); string(r.Stdout) != "ok\n" || r.Status != runtime.StatusCompleted {
				t.Fatalf("healthy run after: %s %q %q", r.Status, r.Stdout, r.Stderr)
			}
		})
	}
}

// hostSettles waits (a few seconds at most) for the goroutines to return
// to their count and the heap to be small again.
func hostSettles(t *testing.T, g0 int, heap0 uint64) {
	t.Helper()
	var ms goruntime.MemStats
	for i := 0; ; i++ {
		debug.FreeOSMemory()
		goruntime.ReadMemStats(&ms)
		g := goroutines()
		if g <= g0+2 && ms.HeapInuse < heap0+32<<20 {
			return
		}
		if i == 50 {
			t.Fatalf("host did not settle: %d goroutines (before %d), heap %d MiB (before %d MiB)", g, g0, ms.HeapInuse>>20, heap0>>20)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// A source nested deeper than MaxNestingDepth is refused before it is
// parsed (a megabyte of "(" would overflow the parser's Go stack).
func TestDeepSourceRefused(t *testing.T) {
	ws := openWS(t, nil)
	src := strings.Repeat("(", 400_000) + "true" + strings.Repeat(")", 400_000)
	_, err := ws.Runtime().Exec(context.Background(), src, runtime.ExecOptions{Backend: "shell"})
	want := "a script nested 400000 brackets deep exceeds the limit MaxNestingDepth (1000)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err %v, want %q", err, want)
	}
	if r := run(t, ws, strings.Repeat("( ", 50)+"echo ok"+strings.Repeat(" )", 50)); string(r.Stdout) != "ok\n" {
		t.Fatalf("%q %q", r.Stdout, r.Stderr)
	}
}

// goroutines counts the host's goroutines less the idle call goroutines of
// live workers (the process tier): a worker keeps one for each host call
// it had in flight at once, as long as it lives (bounded by
// MaxConcurrentCalls), so they are the pool's, not a run's left over.
func goroutines() int {
	buf := make([]byte, 1<<20)
	for {
		n := goruntime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	g := 0
	for _, st := range strings.Split(string(buf), "\n\n") {
		if strings.HasPrefix(st, "goroutine ") && !(strings.Contains(st, "[select]") &&
			strings.Contains(st, "runtime/worker.(*proc).serveCall.func1")) {
			g++
		}
	}
	return g
}
