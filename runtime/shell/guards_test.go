package shell_test

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/internal/tiertest"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/runtime/worker"
	"github.com/nookdev/nook/vfs"
)

// baseline is the host's idle goroutine count and heap, for hostSettles.
// In the process tier the worker pool is filled first: it keeps up to
// twice its Size idle workers (each with goroutines of its own in the
// parent), so a baseline taken before would count the pool's growth as
// goroutines a run left behind.
func baseline(t *testing.T, ws *nook.Workspace) (int, uint64) {
	t.Helper()
	if tiertest.Pool != nil {
		var wg sync.WaitGroup
		for i := 0; i < 2*worker.DefaultSize+1; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if h, err := ws.Runtime().Exec(context.Background(), "true", runtime.ExecOptions{Backend: "shell"}); err == nil {
					h.Result(context.Background())
				}
			}()
		}
		wg.Wait()
		time.Sleep(200 * time.Millisecond)
	}
	var ms goruntime.MemStats
	debug.FreeOSMemory()
	goruntime.ReadMemStats(&ms)
	return goroutines(), ms.HeapInuse
}

// A panic of a command ends the run with an error naming it, wherever the
// command runs: in the script's goroutine, a pipeline stage, a command
// substitution, a background job, a nested interpreter or a command that
// another command started. The host (or the worker) stays up.
func TestPanicEndsTheRun(t *testing.T) {
	ws := openWS(t, nil)
	const want = "internal error: the command __nook_test_panic panicked: a bug in a command"
	scripts := []string{
		"__nook_test_panic",
		"__nook_test_panic | cat",
		"echo x | __nook_test_panic",
		"echo x | __nook_test_panic | cat",
		"x=$(__nook_test_panic); echo \"$x\"",
		"echo \"$(__nook_test_panic | cat)\"",
		"__nook_test_panic & wait",
		"__nook_test_panic late | cat & wait",
		"bash -c '__nook_test_panic | cat'",
		"echo a | xargs __nook_test_panic",
		"find . -maxdepth 0 -exec __nook_test_panic {} \\;",
		"awk 'BEGIN { system(\"__nook_test_panic\") }'",
		"timeout 5 __nook_test_panic",
		"f() { __nook_test_panic late; }; f | cat",
	}
	g0, heap0 := baseline(t, ws)
	for _, s := range scripts {
		t.Run(s, func(t *testing.T) {
			r := run(t, ws, "echo start; "+s+"; echo after", runtime.ExecOptions{Timeout: 20 * time.Second})
			if r.Status != runtime.StatusFailed || r.ExitCode != 1 || r.Error != want {
				t.Fatalf("status %s code %d error %q, want failed 1 %q; stderr %q", r.Status, r.ExitCode, r.Error, want, r.Stderr)
			}
			if !strings.Contains(string(r.Stderr), "shell: "+want+"\n") {
				t.Errorf("stderr %q does not say %q", r.Stderr, want)
			}
			if out := string(r.Stdout); !strings.HasPrefix(out, "start\n") || strings.Contains(out, "after") {
				t.Errorf("stdout %q: the run went on after the panic", out)
			}
			hostSettles(t, g0, heap0)
			if r := run(t, ws, "echo ok | cat"); string(r.Stdout) != "ok\n" || r.Status != runtime.StatusCompleted {
				t.Fatalf("healthy run after: %s %q %q", r.Status, r.Stdout, r.Stderr)
			}
		})
	}
}

// The worst inputs of the built-ins: each ends as GNU's tool would (or at
// the limit it reached) without taking the host's stack, memory or time,
// after which the host is idle and small and a healthy run works.
func TestWorstBuiltinInputs(t *testing.T) {
	ws, err := nook.Open(context.Background(), filepath.Join(t.TempDir(), "w.db"), nook.WithBackends(shell.New(shell.Options{})),
		nook.WithRuntime(runtime.Options{Limits: runtime.Limits{MaxAllocBytes: 1 << 20}}), nook.WithLimits(vfs.Limits{MaxFileSize: 1000}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	if err := ws.FS().MkdirAll(context.Background(), "/workspace", 0o755); err != nil {
		t.Fatal(err)
	}
	alloc := "exceeds the limit MaxAllocBytes (1048576)"
	cases := []struct {
		name, script   string
		timeout        time.Duration
		status         runtime.Status
		stdout, stderr string // stderr: a substring
		err            string // r.Error: a substring
	}{
		{"sqlite3 out of memory", "sqlite3 :memory: 'SELECT length(randomblob(1e9))'; echo rc=$?", 0,
			runtime.StatusCompleted, "rc=1\n", "Error: out of memory\n", ""},
		{"sqlite3 out of memory in a pipeline", "set -o pipefail; sqlite3 :memory: 'SELECT length(randomblob(1e9))' | cat; echo rc=$?", 0,
			runtime.StatusCompleted, "rc=1\n", "Error: out of memory\n", ""},
		{"sed branch loop", "echo x | sed -e ':a' -e 's/x/x/' -e 'ta'", time.Second,
			runtime.StatusTimedOut, "", "", "Execution timed out after 1s (limit Timeout)."},
		{"sed branch loop without s", "echo x | sed ':a;ba'", time.Second,
			runtime.StatusTimedOut, "", "", "Execution timed out after 1s (limit Timeout)."},
		{"sed doubling", "echo x | sed -e :a -e 's/x*/&&/' -e ta", 0,
			runtime.StatusFailed, "", "sed: sed: pattern space, hold space and output reaching 1048577 bytes " + alloc, "sed: pattern space, hold space and output reaching 1048577 bytes " + alloc},
		{"sed hold doubling", "seq 100 | sed -n 'g;G;h'", 0,
			runtime.StatusFailed, "", alloc, "sed: pattern space, hold space and output reaching"},
		{"sed nested blocks", `sed -n "$(printf '/./{%.0s' {1..20000})p$(printf '}%.0s' {1..20000})" <<< abc`, 0,
			runtime.StatusCompleted, "abc\n", "", ""},
		{"bc nested deep", "{ head -c 20000 /dev/zero | tr '\\0' '('; echo 1; } | bc; echo rc=$?", 0,
			runtime.StatusCompleted, "rc=1\n", "(standard_in) 1: syntax error: nested more than 10000 levels deep\n", ""},
		{"bc program too large", "head -c 100000 /dev/zero | tr '\\0' '(' | bc; echo rc=$?", 0,
			runtime.StatusFailed, "", "(standard_in) 1: a program of more than 32768 tokens " + alloc, "a program of more than 32768 tokens " + alloc},
		{"jq result nested deep", "jq -n 'reduce range(20000) as $i (null; [.])'; echo rc=$?", 0,
			runtime.StatusCompleted, "rc=5\n", "jq: error: the result is nested more than 10000 levels deep and cannot be printed\n", ""},
		{"jq into head", "jq -n 'range(1000000000)' | head -2", 0,
			runtime.StatusCompleted, "0\n1\n", "", ""},
		{"awk into head", "set -o pipefail; awk 'BEGIN { while (1) print \"x\" }' | head -1; echo rc=$?", 0,
			runtime.StatusCompleted, "x\nrc=141\n", "", ""},
		{"sqlite3 into head", "sqlite3 :memory: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c' | head -2", 0,
			runtime.StatusCompleted, "1\n2\n", "", ""},
		{"seq into head", "set -o pipefail; seq 1 1000000000000 | head -1; echo rc=$?", 0,
			runtime.StatusCompleted, "1\nrc=141\n", "", ""},
		{"yes into two heads", "set -o pipefail; yes | head -n 10000000000 | head -1; echo rc=$?", 0,
			runtime.StatusCompleted, "y\nrc=141\n", "", ""},
		{"cat of /dev/zero into head", "cat /dev/zero | head -c 3 | od -c | head -1", 0,
			runtime.StatusCompleted, "0000000  \\0  \\0  \\0\n", "", ""},
		// More than a pipe holds (64 KiB), or xargs may write it all before head closes.
		{"xargs into head", "set -o pipefail; seq 100000 | xargs -n 1 echo | head -1; echo rc=$?", 0,
			runtime.StatusCompleted, "1\nrc=125\n", "xargs: echo: terminated by signal 13\n", ""},
		{"head -c past MaxFileSize", "head -c 5000 /dev/zero > f; echo rc=$?; wc -c < f", 0,
			runtime.StatusCompleted, "rc=1\n0\n", "head: error writing 'standard output': File too large\n", ""},
		{"seq past MaxFileSize", "seq 100000 > f; echo rc=$?", 0,
			runtime.StatusCompleted, "rc=1\n", "seq: write error: File too large\n", ""},
		{"a loop of printf past MaxFileSize", "for i in $(seq 300); do printf '%05d\\n' $i; done > f; echo rc=$?", 0,
			runtime.StatusCompleted, "rc=0\n", "bash: f: write error: File too large\n", ""},
		{"echo in a loop past MaxFileSize", "seq 300 | while read -r l; do echo \"$l$l\"; done > f; echo rc=$?", 0,
			runtime.StatusCompleted, "rc=0\n", "bash: f: write error: File too large\n", ""},
		{"yes past MaxFileSize", "yes > f; echo rc=$?", 0,
			runtime.StatusCompleted, "rc=1\n", "yes: standard output: File too large\n", ""},
	}
	g0, heap0 := baseline(t, ws)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			timeout := c.timeout
			if timeout == 0 {
				timeout = 30 * time.Second
			}
			t0 := time.Now()
			r := run(t, ws, c.script, runtime.ExecOptions{Timeout: timeout})
			took := time.Since(t0)
			if r.Status != c.status || (c.stdout != "" || c.status == runtime.StatusCompleted) && string(r.Stdout) != c.stdout ||
				!strings.Contains(string(r.Stderr), c.stderr) || !strings.Contains(r.Error, c.err) {
				t.Fatalf("status %s (code %d) error %q stdout %q stderr %q;\nwant %s error ~%q stdout %q stderr ~%q",
					r.Status, r.ExitCode, r.Error, r.Stdout, r.Stderr, c.status, c.err, c.stdout, c.stderr)
			}
			if took > timeout+5*time.Second {
				t.Errorf("the run took %v (timeout %v)", took, timeout)
			}
			hostSettles(t, g0, heap0)
			if r := run(t, ws, "echo ok"); string(r.Stdout) != "ok\n" || r.Status != runtime.StatusCompleted {
				t.Fatalf("healthy run after: %s %q %q", r.Status, r.Stdout, r.Stderr)
			}
		})
	}
}

// An archive of many members past MaxCalls: the first refused call ends
// unzip and the run, which says so once (unzip went on through every
// member, each call refused).
func TestUnzipStopsAtMaxCalls(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i < 20_000; i++ {
		w, err := zw.Create(fmt.Sprintf("d/f%05d.txt", i))
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte("x"))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	ws := openWSLimits(t, nil, runtime.Limits{MaxCalls: 2000}, shell.Options{})
	if err := ws.FS().WriteFile(context.Background(), "/workspace/a.zip", buf.Bytes(), &vfs.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	g0, heap0 := baseline(t, ws)
	t0 := time.Now()
	r := run(t, ws, "unzip -q a.zip; echo after", runtime.ExecOptions{Timeout: time.Minute})
	const want = "exceeds the limit MaxCalls (2000)"
	if r.Status != runtime.StatusFailed || !strings.HasSuffix(r.Error, want) || strings.Contains(string(r.Stdout), "after") {
		t.Fatalf("status %s error %q stdout %q, want failed with %q", r.Status, r.Error, r.Stdout, want)
	}
	if n := strings.Count(string(r.Stderr), "\n"); n > 3 {
		t.Errorf("stderr has %d lines, want the limit once:\n%.2000s", n, r.Stderr)
	}
	t.Logf("%v; stderr %q", time.Since(t0), r.Stderr)
	hostSettles(t, g0, heap0)
}

// One write larger than a host call may carry reaches the file in calls
// of bounded size; a loop of our printf into one file does not cost a
// host call per iteration (a command's end flushes only the first few).
func TestLargeWriteToFile(t *testing.T) {
	ws := openWSLimits(t, nil, runtime.Limits{MaxCalls: 500}, shell.Options{})
	r := run(t, ws, "head -c 20000000 /dev/zero | tr '\\0' a > f; echo rc=$?; wc -c < f; head -c 3 f")
	if r.Status != runtime.StatusCompleted || string(r.Stdout) != "rc=0\n20000000\naaa" {
		t.Fatalf("%s %q %q", r.Status, r.Stdout, r.Stderr)
	}
	r = run(t, ws, "for i in $(seq 2000); do printf '%d\\n' $i; done > g; wc -l < g")
	if r.Status != runtime.StatusCompleted || string(r.Stdout) != "2000\n" {
		t.Fatalf("%s %q %q %q", r.Status, r.Stdout, r.Stderr, r.Error)
	}
}
