package shell_test

import (
	"strings"
	"testing"
)

// Programs the sandbox lacks answer 127 with what to use instead, and stay
// missing for command -v.
func TestMissingProgramsHint(t *testing.T) {
	ws := openWS(t, nil)
	r := run(t, ws, "python3 -c 'print(1)'; echo rc=$?; command -v python3 || echo none; node -e 1; echo rc=$?")
	if string(r.Stdout) != "rc=127\nnone\nrc=127\n" {
		t.Fatalf("stdout %q", r.Stdout)
	}
	for _, want := range []string{"python3: command not found: there is no Python in this sandbox; write the program in JavaScript",
		"node: command not found: the shell does not run JavaScript; run the file or code with the js backend"} {
		if !strings.Contains(string(r.Stderr), want) {
			t.Errorf("stderr %q lacks %q", r.Stderr, want)
		}
	}
}
