package main

import (
	"strings"
	"testing"
)

// TestExecIsolation: by default a program runs in a worker process;
// --isolation in-process runs it in nook's own process; version and runs
// backends say which tier is in force. (The parse that once crashed the
// host is stopped before the parser now, in either tier; a worker that
// crashes all the same ends only its run: see runtime/worker's tests.)
func TestExecIsolation(t *testing.T) {
	w := newWS(t)
	r := w.run("exec", "-e", `const n = 3e6; JSON.parse("[".repeat(n) + "]".repeat(n));`)
	const nested = "Uncaught SyntaxError: JSON text nested deeper than 1000 levels (at byte 1000) exceeds the limit MaxNestingDepth (1000)\n"
	if r.code != 1 || !strings.HasPrefix(r.stderr, nested) {
		t.Errorf("a deeply nested parse: %+v", r)
	}
	equal(t, "after the crash", w.ok("exec", "-e", "export default () => 42"), "42\n")
	equal(t, "in process", w.ok("--isolation", "in-process", "exec", "-e", "export default () => 6 * 7"), "42\n")
	if v := w.ok("version"); !strings.Contains(v, "\nisolation: process (") {
		t.Errorf("version: %q", v)
	}
	if v := w.ok("--isolation", "in-process", "runs", "backends"); !strings.HasSuffix(v, "\nisolation: in-process (programs run inside nook's process; limits are the backends' own)\n") {
		t.Errorf("runs backends: %q", v)
	}
	w.fail(2, "nook: --isolation \"thread\": want process or in-process\n", "--isolation", "thread", "version")
}
