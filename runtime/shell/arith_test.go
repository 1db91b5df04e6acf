package shell_test

import (
	"strings"
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

// A panic of the interpreter itself (here: an array element assigned in a
// for (( )) loop's arithmetic, which the rewrite cannot reach) ends the
// run as the shell's error, after what ran before it, never as the
// backend's panic.
func TestInterpreterPanicIsTheShellsError(t *testing.T) {
	ws := openWS(t, nil)
	r := run(t, ws, "echo before\nfor (( a[1]=0; a[1]<2; a[1]++ )); do echo x; done\necho after\n")
	if string(r.Stdout) != "before\n" || r.ExitCode != 1 {
		t.Errorf("stdout %q, status %d; want %q, 1", r.Stdout, r.ExitCode, "before\n")
	}
	const want = "shell: internal error: the interpreter panicked: variable name must not be empty\n"
	if string(r.Stderr) != want || strings.Contains(string(r.Stderr), "backend panicked") {
		t.Errorf("stderr %q, want %q", r.Stderr, want)
	}
}

// The same panic in a goroutine of the interpreter (a pipeline's left
// stage, a background job, a stage of a pipeline inside a subshell) used to
// end the host process: the fork's guard (internal/mvsh, guard.go) ends the
// run with the shell's error instead.
func TestInterpreterPanicInGoroutineIsTheShellsError(t *testing.T) {
	ws := openWS(t, nil)
	const loop = "for (( a[1]=0; a[1]<2; a[1]++ )); do echo x; done"
	const want = "shell: internal error: the interpreter panicked: variable name must not be empty\n"
	for _, script := range []string{
		"echo before\n{ " + loop + "; } | cat\necho after\n",
		"echo before\n{ " + loop + "; } &\nwait\necho after\n",
		"echo before\n( { " + loop + "; } | cat; echo inner )\necho after\n",
	} {
		r := run(t, ws, script)
		if string(r.Stdout) != "before\n" || r.ExitCode != 1 || string(r.Stderr) != want {
			t.Errorf("%q: stdout %q, status %d, stderr %q; want %q, 1, %q", script, r.Stdout, r.ExitCode, r.Stderr, "before\n", want)
		}
	}
}
