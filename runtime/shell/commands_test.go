package shell_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
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

// unzip extracts only inside the target directory and bounds a member's
// size (a zip bomb stops at MaxAllocBytes).
func TestUnzipStaysInsideAndBounded(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name, body string, mode fs.FileMode) {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		h.SetMode(mode)
		w, _ := zw.CreateHeader(h)
		w.Write([]byte(body))
	}
	add("ok.txt", "fine\n", 0o644)
	add("../escape.txt", "up\n", 0o644)
	add("a/../../escape2.txt", "up\n", 0o644)
	add("/abs.txt", "abs\n", 0o644)
	add("uplink", "../..", fs.ModeSymlink|0o777)
	add("abslink", "/etc/passwd", fs.ModeSymlink|0o777)
	add("inlink", "ok.txt", fs.ModeSymlink|0o777)
	add("bomb.txt", strings.Repeat("0", 3<<20), 0o644)
	zw.Close()
	ws := openWSLimits(t, map[string]string{"evil.zip": buf.String()}, runtime.Limits{MaxAllocBytes: 2 << 20}, shell.Options{})
	r := run(t, ws, "mkdir x; unzip -q evil.zip -d x; echo status=$?; find x | sort; cat x/inlink")
	if want := "status=2\nx\nx/abs.txt\nx/inlink\nx/ok.txt\nfine\n"; string(r.Stdout) != want {
		t.Errorf("stdout %q, want %q; stderr %s", r.Stdout, want, r.Stderr)
	}
	for _, w := range []string{"skipped \"../\" path component(s) in ../escape.txt", "skipped symlink x/uplink -> ../..",
		"skipped symlink x/abslink -> /etc/passwd", "bomb.txt: member is larger than the limit MaxAllocBytes (2097152)"} {
		if !strings.Contains(string(r.Stderr), w) {
			t.Errorf("stderr %q lacks %q", r.Stderr, w)
		}
	}
	ctx := context.Background()
	for _, p := range []string{"/workspace/escape.txt", "/escape.txt", "/escape2.txt", "/workspace/escape2.txt", "/abs.txt", "/workspace/x/uplink"} {
		if _, err := ws.FS().Lstat(ctx, p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
}

// bc's worst inputs end with an error and the host stays small.
func TestBcWorstInputs(t *testing.T) {
	ws := openWS(t, nil, shell.Options{MaxLoopIterations: 10_000})
	cases := []struct{ script, stderr string }{
		{`echo '2^100000000' | bc`, "exponent too large"},
		{`echo 'x=10^90000; x*x' | bc`, "number of more than 100000 digits"},
		{`printf 'define f(x) { return (f(x)) }\nf(1)\n' | bc`, "function calls nested deeper than 1000 (MaxFunctionDepth)"},
		{`echo 'scale=100000000' | bc`, "scale out of range: 100000000"},
	}
	for _, c := range cases {
		r := run(t, ws, c.script)
		if !strings.Contains(string(r.Stderr), c.stderr) {
			t.Errorf("%s: stderr %q, want %q", c.script, r.Stderr, c.stderr)
		}
	}
	r := run(t, ws, `echo 'while (1) { }' | bc`)
	if r.Status != runtime.StatusFailed || !strings.Contains(r.Error, "exceeds the limit MaxLoopIterations (10000)") {
		t.Errorf("loop: %s %q", r.Status, r.Error)
	}
}
