package main

import (
	"strings"
	"testing"
)

// TestExecIsolation: by default a program runs in a worker process, whose
// crash fails only its run; --isolation in-process runs it in nook's own
// process; version and runs backends say which tier is in force.
func TestExecIsolation(t *testing.T) {
	w := newWS(t)
	r := w.run("exec", "-e", `const n = 3e6; JSON.parse("[".repeat(n) + "]".repeat(n));`)
	const crash = "the sandbox process crashed: runtime: goroutine stack exceeds 67108864-byte limit\n"
	if r.code != 1 || r.stderr != crash {
		t.Errorf("a crashing program: %+v", r)
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
