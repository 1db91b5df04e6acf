package shell_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io/fs"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
)

// Programs the sandbox lacks answer 127 with what to use instead, and stay
// missing for command -v; npm answers that there is no registry.
func TestMissingProgramsHint(t *testing.T) {
	ws := openWS(t, nil)
	r := run(t, ws, "python3 -c 'print(1)'; echo rc=$?; command -v python3 || echo none; npm install x; echo rc=$?")
	if string(r.Stdout) != "rc=127\nnone\nrc=127\n" {
		t.Fatalf("stdout %q", r.Stdout)
	}
	for _, want := range []string{"python3: command not found: there is no Python in this sandbox; write the program in JavaScript",
		"npm: command not found: there is no npm registry in this sandbox, so packages cannot be installed; node, tsx and npx tsx run"} {
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

// The new commands' worst inputs stop at a limit or with a clear error,
// and the host settles after each.
func TestNewCommandsWorstInputs(t *testing.T) {
	lim := runtime.Limits{MaxAllocBytes: 1 << 20, MaxOutputBytes: 1 << 20, MaxCalls: 2000}
	ws := openWSLimits(t, map[string]string{"big": strings.Repeat("x", 512<<10)}, lim, shell.Options{MaxLoopIterations: 10_000})
	cases := []struct{ name, script, want string }{
		{"shuf -r forever", "shuf -r -e a", "exceeds the limit MaxOutputBytes (1048576)"},
		{"shuf huge range", "shuf -i 1-1000000000", "shuf: input range of 1000000000 numbers is larger than the limit MaxAllocBytes allows"},
		{"truncate huge", "truncate -s 1T f", "truncate: cannot extend 'f' to 1099511627776 bytes: larger than the limit MaxAllocBytes (1048576)"},
		{"split into many files", "split -b 1 -a 5 big", "exceeds the limit MaxCalls (2000)"},
		{"factor huge", "factor 123456789012345678901234567890123456789012345678901234567890123456789", "is too large (at most 200 bits)"},
		{"fold of /dev/zero", "fold /dev/zero", "is larger than the limit MaxAllocBytes (1048576)"},
		{"cmp of endless inputs", "timeout 0.5 cmp /dev/zero /dev/zero; echo rc=$?", "rc=124"},
		{"timeout of a fork bomb", "timeout 20 bash -c 'f() { f | f; }; f'", "exceeds the limit MaxProcesses (128)"},
		{"numfmt of /dev/zero", "numfmt < /dev/zero", "is larger than the limit MaxAllocBytes (1048576)"},
		{"b2sum of a large stream", "head -c 3000000 /dev/zero | b2sum", "1e85c97051b4036887967331bc0fc895ef66dab74e460be7117e7ab4c87917f6ec40bb80a9586fbd7673119d5618326a6d927a300deade44e8b543f7088fc84d  -"},
	}
	g0 := goruntime.NumGoroutine()
	var ms goruntime.MemStats
	debug.FreeOSMemory()
	goruntime.ReadMemStats(&ms)
	heap0 := ms.HeapInuse
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, ws, c.script, runtime.ExecOptions{Timeout: 30 * time.Second})
			if out := r.Error + string(r.Stdout) + string(r.Stderr); !strings.Contains(out, c.want) {
				t.Fatalf("status %s error %q stdout %q stderr %q; want %q", r.Status, r.Error, trunc(r.Stdout), trunc(r.Stderr), c.want)
			}
			hostSettles(t, g0, heap0)
			if r := run(t, ws, "echo ok"); string(r.Stdout) != "ok\n" {
				t.Fatalf("healthy run after: %s %q", r.Status, r.Stderr)
			}
		})
	}
}

func trunc(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

// In read-only mode every new command that writes fails with EROFS and
// changes nothing.
func TestNewCommandsReadOnly(t *testing.T) {
	ws := openWS(t, map[string]string{"a.txt": "a\n", "p.patch": "--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n-a\n+b\n"}, shell.Options{ReadOnly: true})
	for _, script := range []string{"chmod +x a.txt", "truncate -s 0 a.txt", "touch -t 202001010000 a.txt", "install a.txt b.txt",
		"split -l 1 a.txt", "zip -q z.zip a.txt", "patch a.txt < p.patch", "shuf -o out -e x", "unzip -q nothing.zip"} {
		r := run(t, ws, script+"; echo rc=$?")
		if strings.Contains(string(r.Stdout), "rc=0") {
			t.Errorf("%s: succeeded in read-only mode: %q %q", script, r.Stdout, r.Stderr)
		}
	}
	r := run(t, ws, "cat a.txt; stat -c %a a.txt; ls")
	if string(r.Stdout) != "a\n644\na.txt\np.patch\n" {
		t.Fatalf("the workspace changed: %q", r.Stdout)
	}
}

// env's environment is the command's whole environment, nested shells
// included; a nested shell never gets the host's HOME or uid.
func TestEnvReachesCommands(t *testing.T) {
	ws := openWS(t, nil)
	r := run(t, ws, `env FOO=1 bash -c 'echo [$FOO]'; env FOO=2 printenv FOO; printf 'echo [$X]\n' > s.sh; env X=3 ./s.sh
env A=1 bash -c 'export B=2; printenv B'; env -i bash -c 'echo [$HOME] [$UID] [$EUID] [$GID]'; env -u HOME printenv HOME || echo nohome`)
	want := "[1]\n2\n[3]\n2\n[/workspace] [1000] [1000] [1000]\nnohome\n"
	if string(r.Stdout) != want {
		t.Fatalf("stdout %q, want %q; stderr %q", r.Stdout, want, r.Stderr)
	}
}
