package shell_test

import (
	"testing"
)

// The two host panics of issue 23 give bash's result: arithmetic that
// assigns to an array element, and an associative array's subscript that
// looks like arithmetic (testdata/diff/325 and 326 compare more with
// bash).
func TestArithArrayElementNoPanic(t *testing.T) {
	ws := openWS(t, nil)
	for _, c := range []struct{ script, stdout string }{
		{`(( a[1]=5 )); echo "${a[1]} $?"`, "5 0\n"},
		{`declare -A a; echo "[${a[a+1]}]"`, "[]\n"},
		{`(( a[1]=5 )) | cat; echo "${PIPESTATUS[0]:-0} ${a[1]:-unset}"`, "0 unset\n"},
	} {
		r := run(t, ws, c.script)
		if string(r.Stdout) != c.stdout || r.ExitCode != 0 || len(r.Stderr) > 0 {
			t.Errorf("%s: stdout %q, status %d, stderr %q; want %q, 0", c.script, r.Stdout, r.ExitCode, r.Stderr, c.stdout)
		}
	}
}

// An array element assigned in a for (( )) loop's header (which the
// rewrite cannot reach) used to panic the interpreter ("variable name must
// not be empty"); the fork assigns it in place (internal/mvsh/PATCHES.md),
// in the run's goroutine and in the interpreter's own (a pipeline stage, a
// job, a subshell's pipeline), which used to end the host process. The
// goroutine guard itself is tested with an injected panic in
// internal/mvsh/interp (TestGoroutinePanic).
func TestArithElementInForHeader(t *testing.T) {
	ws := openWS(t, nil)
	const loop = "for (( a[1]=0; a[1]<2; a[1]++ )); do echo x; done"
	for _, c := range []struct{ script, stdout string }{
		{"echo before\n" + loop + "\necho after ${a[1]}\n", "before\nx\nx\nafter 2\n"},
		{"echo before\n{ " + loop + "; } | cat\necho after\n", "before\nx\nx\nafter\n"},
		{"echo before\n{ " + loop + "; } &\nwait\necho after\n", "before\nx\nx\nafter\n"},
		{"echo before\n( { " + loop + "; } | cat; echo inner )\necho after\n", "before\nx\nx\ninner\nafter\n"},
	} {
		r := run(t, ws, c.script)
		if string(r.Stdout) != c.stdout || r.ExitCode != 0 || len(r.Stderr) > 0 {
			t.Errorf("%q: stdout %q, status %d, stderr %q; want %q, 0", c.script, r.Stdout, r.ExitCode, r.Stderr, c.stdout)
		}
	}
}
