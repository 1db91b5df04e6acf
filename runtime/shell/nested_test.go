package shell_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
)

// execHost is a Host without a runtime: it answers KindExec calls with
// answer and records them; any other call fails.
type execHost struct {
	mu             sync.Mutex
	calls          []*runtime.Call
	answer         func(c *runtime.Call) (any, error)
	stdout, stderr bytes.Buffer
}

func (h *execHost) Call(ctx context.Context, c *runtime.Call) (any, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if c.Kind != runtime.KindExec {
		return nil, &runtime.CallError{Code: "ENOSYS", Message: "ENOSYS: not in this test host"}
	}
	h.calls = append(h.calls, c)
	return h.answer(c)
}

func (h *execHost) Write(s runtime.Stream, p []byte) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s == runtime.Stderr {
		h.stderr.Write(p)
	} else {
		h.stdout.Write(p)
	}
	return nil
}

func (h *execHost) Now() time.Time  { return time.Unix(0, 0) }
func (h *execHost) Random(p []byte) { clear(p) }

// runFake runs script on a bare shell backend with host.
func runFake(t *testing.T, host *execHost, script string, stdin string, lim runtime.Limits) runtime.Exit {
	t.Helper()
	ctx := context.Background()
	p, err := shell.New(shell.Options{}).Prepare(ctx, nil, &runtime.Request{ID: "r", Source: script, Cwd: "/workspace/sub",
		Env: map[string]string{"LC_ALL": "C"}, Stdin: []byte(stdin), Limits: lim.WithDefaults()})
	if err != nil {
		t.Fatal(err)
	}
	return p.Run(ctx, host)
}

// The shell's node, tsx, npx tsx and wasm are one KindExec call each,
// carrying the program, its arguments, the exported environment, the cwd
// and the whole stdin; the result's streams and code become the command's.
func TestNestedCalls(t *testing.T) {
	host := &execHost{answer: func(c *runtime.Call) (any, error) {
		a := c.Args.(map[string]any)
		return map[string]any{"code": float64(3), "status": "failed", "stdout": []byte("out:" + c.Op + "\n"),
			"stderr": []byte("err\n"), "stdoutBytes": float64(len("out:" + c.Op + "\n")), "stderrBytes": float64(4),
			"id": "r.x1", "stdinSeen": a["stdin"]}, nil
	}}
	script := `export FOO=bar; BAZ=local
echo in | node -e 'console.log(fs.readFileSync(0, "utf8"))' a b; echo "rc=$?"
node -p '1+2' </dev/null
node x.js q
tsx ../t.ts
npx -y tsx t.ts
echo 'console.log(2)' | node
node - z < prog.js
./prog.wasm w1 w2
wasm /workspace/m.wasm
nodejs --input-type=module -e 'x' `
	ex := runFake(t, host, script, "", runtime.Limits{MaxOutputBytes: 1000})
	if ex.Code != 3 {
		t.Errorf("exit %d (%v), want 3", ex.Code, ex.Err)
	}
	if got := host.stdout.String(); got != "out:js\nrc=3\n"+strings.Repeat("out:js\n", 5)+"out:wasm\nout:wasm\nout:js\n" {
		t.Errorf("stdout %q", got)
	}
	type want struct {
		op, key, val string
		args         string
		stdin        string
	}
	wants := []want{
		{"js", "source", `console.log(fs.readFileSync(0, "utf8"))`, "a,b", "in\n"},
		{"js", "source", "console.log((\n1+2\n));\n", "", ""},
		{"js", "file", "/workspace/sub/x.js", "q", ""},
		{"js", "file", "/workspace/t.ts", "", ""},
		{"js", "file", "/workspace/sub/t.ts", "", ""},
		{"js", "source", "console.log(2)\n", "", ""},
	}
	if len(host.calls) != 9 {
		t.Fatalf("%d calls", len(host.calls))
	}
	for i, w := range wants {
		c := host.calls[i]
		a := c.Args.(map[string]any)
		var args []string
		for _, s := range a["args"].([]any) {
			args = append(args, s.(string))
		}
		stdin, _ := a["stdin"].([]byte)
		if c.Op != w.op || a[w.key] != w.val || strings.Join(args, ",") != w.args || string(stdin) != w.stdin ||
			a["cwd"] != "/workspace/sub" || a["maxBuffer"] != float64(1000) {
			t.Errorf("call %d: %s %v", i, c.Op, a)
		}
		env := a["env"].(map[string]any)
		if env["FOO"] != "bar" || env["LC_ALL"] != "C" || env["BAZ"] != nil {
			t.Errorf("call %d: env %v", i, env)
		}
	}
	// node - z < prog.js: "prog.js" cannot be opened here (no fs), so the
	// redirection fails and node does not run: calls 6.. are the wasm ones.
	if a := host.calls[6].Args.(map[string]any); host.calls[6].Op != "wasm" || a["file"] != "/workspace/sub/prog.wasm" {
		t.Errorf("./prog.wasm: %s %v", host.calls[6].Op, a)
	}
	if a := host.calls[7].Args.(map[string]any); a["file"] != "/workspace/m.wasm" {
		t.Errorf("wasm FILE: %v", a)
	}
}

// Without the backend, the runtime fails the call with ENOENT; the command
// says so and exits 127. Other answers: a missing file, a refused start.
func TestNestedErrors(t *testing.T) {
	for _, c := range []struct {
		script, code, msg string
		wantErr           string
		status            int
	}{
		{"node -e 1", "ENOENT", `exec: no backend "js" is configured in this workspace (configured: shell)`, "node: the JavaScript backend is not configured in this workspace\n", 127},
		{"wasm a.wasm", "ENOENT", `exec: no backend "wasm" is configured in this workspace (configured: shell)`, "wasm: the WebAssembly backend is not configured in this workspace\n", 127},
		{"node x.js", "ENOENT", "ENOENT: no such file or directory, open '/workspace/sub/x.js'", "node: Error: Cannot find module '/workspace/sub/x.js'\n", 1},
		{"./p.wasm", "ENOENT", "ENOENT: no such file or directory", "wasm: ./p.wasm: No such file or directory\n", 127},
		{"node -e 1", "EAGAIN", "EAGAIN: nested runs exceed the limit MaxExecDepth (8)", "node: EAGAIN: nested runs exceed the limit MaxExecDepth (8)\n", 1},
	} {
		host := &execHost{answer: func(*runtime.Call) (any, error) {
			return nil, &runtime.CallError{Code: c.code, Message: c.msg}
		}}
		ex := runFake(t, host, c.script+"; echo rc=$?", "", runtime.Limits{})
		if got := host.stderr.String(); got != c.wantErr || host.stdout.String() != "rc="+itoa(c.status)+"\n" || ex.Code != 0 {
			t.Errorf("%s: stderr %q stdout %q, want %q rc=%d", c.script, got, host.stdout.String(), c.wantErr, c.status)
		}
	}
}

// Commands that need no call: node --version, python's and npx's
// messages; stdin past MaxStdinBytes is refused naming the limit; a
// result cut at maxBuffer is printed with a note.
func TestNestedLocal(t *testing.T) {
	host := &execHost{answer: func(c *runtime.Call) (any, error) {
		return map[string]any{"code": float64(0), "stdout": []byte("abc"), "stdoutBytes": float64(10), "stderrBytes": float64(0)}, nil
	}}
	runFake(t, host, `node --version; node -v; python3 x.py; echo rc=$?; pip install x; echo rc=$?; npx prettier x; echo rc=$?
head -c 2000 /dev/zero | node -e process.stdin; echo rc=$?
node big.js; echo; echo rc=$?`, "", runtime.Limits{MaxStdinBytes: 1000})
	wantOut := shell.NodeVersion + "\n" + shell.NodeVersion + "\nrc=127\nrc=127\nrc=127\nrc=1\nabc\nrc=0\n"
	if host.stdout.String() != wantOut {
		t.Errorf("stdout %q, want %q", host.stdout.String(), wantOut)
	}
	errs := strings.Split(host.stderr.String(), "\n")
	wantErr := []string{
		"python3: command not found: there is no Python in this sandbox; write the program in JavaScript or TypeScript and run it with node (node x.js, node -e CODE, tsx x.ts: the js backend, with node:fs over the same files), or compile it to WebAssembly (WASI) and run it with wasm x.wasm",
		"pip: command not found: there is no Python in this sandbox; write the program in JavaScript or TypeScript and run it with node (node x.js, node -e CODE, tsx x.ts: the js backend, with node:fs over the same files), or compile it to WebAssembly (WASI) and run it with wasm x.wasm",
		"npx: prettier: there is no npm registry in this sandbox, so packages cannot be fetched; npx runs only tsx, ts-node and node (JavaScript and TypeScript run on the js backend; write what the package would do, or use the built-in commands)",
		"node: standard input of more than 1000 bytes exceeds the limit MaxStdinBytes (1000)",
		"node: the program wrote 10 bytes on stdout; the first 3 are shown",
		"",
	}
	if strings.Join(errs, "\n") != strings.Join(wantErr, "\n") {
		t.Errorf("stderr:\n%s\nwant:\n%s", host.stderr.String(), strings.Join(wantErr, "\n"))
	}
	if len(host.calls) != 1 {
		t.Errorf("%d calls, want 1 (node big.js)", len(host.calls))
	}
}
