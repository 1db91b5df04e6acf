package shell_test

import (
	"context"
	"fmt"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/runtime/wasm"
	"github.com/nookdev/nook/vfs"
)

// openWSJS opens a workspace with the shell and JavaScript backends.
func openWSJS(t testing.TB, files map[string]string, opts ...nook.Option) *nook.Workspace {
	t.Helper()
	ctx := context.Background()
	ws, err := nook.Open(ctx, filepath.Join(t.TempDir(), "w.db"),
		append([]nook.Option{nook.WithBackends(shell.New(shell.Options{}), js.New(js.Options{}))}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	if err := ws.FS().MkdirAll(ctx, "/workspace", 0o755); err != nil {
		t.Fatal(err)
	}
	for p, data := range files {
		if err := ws.FS().WriteFile(ctx, "/workspace/"+p, []byte(data), &vfs.WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

// node, tsx and npx tsx through the runtime: the nested run sees the
// shell's arguments, exported environment, cwd and stdin; its output and
// exit code are the command's.
func TestNodeEndToEnd(t *testing.T) {
	ws := openWSJS(t, map[string]string{
		"sub/x.js": "const fs = require('fs');\nconsole.log(process.argv.slice(2).join(','), process.env.FOO, process.cwd());\n" +
			"console.log(fs.readFileSync(0, 'utf8').trim());\nfs.writeFileSync('made.txt', 'by node\\n');\nprocess.exit(4);\n",
		"lib.ts":  "export const twice = (n: number): number => n * 2;\n",
		"main.ts": "import { twice } from './lib.ts';\nconst n: number = 21;\nconsole.log(twice(n));\n",
	})
	script := `export FOO=bar
cd sub && printf 'from stdin\n' | node x.js a 'b c'; echo "rc=$?"; cat made.txt; cd ..
node -e 'console.log(1 + 1)'
node -p '[1, 2].map(x => x * 3)'
echo 'console.log("piped program")' | node
tsx main.ts
npx tsx main.ts
node -e 'console.error("to stderr"); process.exitCode = 3'; echo "rc=$?"
node -e 'syntax error here'; echo "rc=$?"
node missing.js; echo "rc=$?"
x=$(node -p '"captured"'); echo "[$x]"`
	r := run(t, ws, script)
	want := "a,b c bar /workspace/sub\nfrom stdin\nrc=4\nby node\n2\n[ 3, 6 ]\npiped program\n42\n42\nrc=3\nrc=1\nrc=1\n[captured]\n"
	if string(r.Stdout) != want {
		t.Errorf("stdout:\n%s\nwant:\n%s\nstderr:\n%s", r.Stdout, want, r.Stderr)
	}
	for _, w := range []string{"to stderr\n", "node: Error: Cannot find module '/workspace/missing.js'\n"} {
		if !strings.Contains(string(r.Stderr), w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.Stderr)
		}
	}
}

// Without the js backend, node says it is not configured.
func TestNodeNotConfigured(t *testing.T) {
	ws := openWS(t, nil)
	r := run(t, ws, "node -e 1; echo rc=$?; wasm a.wasm; echo rc=$?")
	if string(r.Stdout) != "rc=127\nrc=127\n" || string(r.Stderr) != "node: the JavaScript backend is not configured in this workspace\n"+
		"wasm: the WebAssembly backend is not configured in this workspace\n" {
		t.Errorf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
}

// A read-only shell run starts read-only nested runs.
func TestNodeReadOnly(t *testing.T) {
	ctx := context.Background()
	ws, err := nook.Open(ctx, filepath.Join(t.TempDir(), "w.db"),
		nook.WithBackends(shell.New(shell.Options{ReadOnly: true}), js.New(js.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.FS().MkdirAll(ctx, "/workspace", 0o755)
	r := run(t, ws, `node -e 'require("fs").writeFileSync("x", "1")'; echo rc=$?`)
	if string(r.Stdout) != "rc=1\n" || !strings.Contains(string(r.Stderr), "EROFS") {
		t.Errorf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}

}

// helloWasm is a WASI module that writes "hi from wasm\n" and exits 7.
func helloWasm() []byte {
	name := func(s string) []byte { return append([]byte{byte(len(s))}, s...) }
	section := func(id byte, body ...[]byte) []byte {
		var b []byte
		for _, p := range body {
			b = append(b, p...)
		}
		return append([]byte{id, byte(len(b))}, b...)
	}
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	const wasi = "wasi_snapshot_preview1"
	msg := "hi from wasm\n"
	code := []byte{0x00, 0x41, 0x01, 0x41, 0x00, 0x41, 0x01, 0x41, 0x20, 0x10, 0x00, 0x1a, 0x41, 0x07, 0x10, 0x01, 0x0b}
	return cat([]byte("\x00asm\x01\x00\x00\x00"),
		section(1, []byte{0x03, 0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x01, 0x7f, 0x60, 0x01, 0x7f, 0x00, 0x60, 0x00, 0x00}),
		section(2, []byte{0x02}, name(wasi), name("fd_write"), []byte{0x00, 0x00}, name(wasi), name("proc_exit"), []byte{0x00, 0x01}),
		section(3, []byte{0x01, 0x02}),
		section(5, []byte{0x01, 0x00, 0x01}),
		section(7, []byte{0x02}, name("memory"), []byte{0x02, 0x00}, name("_start"), []byte{0x00, 0x02}),
		section(10, []byte{0x01, byte(len(code))}, code),
		section(11, []byte{0x02, 0x00, 0x41, 0x00, 0x0b, 0x08, 0x08, 0x00, 0x00, 0x00, byte(len(msg)), 0x00, 0x00, 0x00},
			[]byte{0x00, 0x41, 0x08, 0x0b}, name(msg)))
}

// wasm FILE and ./FILE.wasm run the module on the wasm backend.
func TestWasmEndToEnd(t *testing.T) {
	ctx := context.Background()
	ws, err := nook.Open(ctx, filepath.Join(t.TempDir(), "w.db"), nook.WithBackends(shell.New(shell.Options{}), wasm.New(wasm.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.FS().WriteFile(ctx, "/workspace/bin/hello.wasm", helloWasm(), &vfs.WriteOptions{MkdirAll: true})
	r := run(t, ws, `wasm bin/hello.wasm a b; echo "rc=$?"; cd bin && ./hello.wasm; echo "rc=$?"; ./nope.wasm; echo "rc=$?"; x=$(./hello.wasm); echo "[$x]"`)
	if string(r.Stdout) != "hi from wasm\nrc=7\nhi from wasm\nrc=7\nrc=127\n[hi from wasm]\n" {
		t.Errorf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
	if string(r.Stderr) != "wasm: ./nope.wasm: No such file or directory\n" {
		t.Errorf("stderr %q", r.Stderr)
	}
}

// node leaves stdin to the shell unless the program reads it, as Node
// does: a while-read loop that runs node sees every line.
func TestNodeLeavesStdinAlone(t *testing.T) {
	ws := openWSJS(t, map[string]string{
		"list.txt": "a\nb\nc\n",
		"show.js":  "console.log('got', process.argv[2]);\n",
		"cat.js":   "process.stdin.on('data', d => process.stdout.write(d));\n",
	})
	r := run(t, ws, `while read -r l; do node show.js "$l"; node -e 'console.log(1)'; done < list.txt
printf 'x\ny\n' | while read -r l; do echo "[$l]"; node cat.js; done`)
	if want := "got a\n1\ngot b\n1\ngot c\n1\n[x]\ny\n"; string(r.Stdout) != want {
		t.Errorf("stdout %q, want %q (stderr %q)", r.Stdout, want, r.Stderr)
	}
}

// The worst inputs of node from the shell: an endless program stops at
// `timeout` (124) and at the run's timeout; endless output stops at
// MaxOutputBytes; the host settles after each.
func TestNodeWorstInputs(t *testing.T) {
	ws := openWSJS(t, nil, nook.WithRuntime(runtime.Options{Limits: runtime.Limits{MaxOutputBytes: 1 << 20}}))
	// Warm up first: in the process tier a run starts the pool's workers
	// (and their goroutines), which stay for the next runs.
	run(t, ws, `node -p 1`)
	g0 := goruntime.NumGoroutine()
	var ms goruntime.MemStats
	debug.FreeOSMemory()
	goruntime.ReadMemStats(&ms)
	heap0 := ms.HeapInuse
	r := run(t, ws, `timeout 1 node -e 'for (;;) {}'; echo "rc=$?"`, runtime.ExecOptions{Timeout: 30 * time.Second})
	if string(r.Stdout) != "rc=124\n" || string(r.Stderr) != "" || r.Status != runtime.StatusCompleted {
		t.Errorf("timeout: %s stdout %q stderr %q", r.Status, r.Stdout, r.Stderr)
	}
	hostSettles(t, g0, heap0)
	r = run(t, ws, `node -e 'for (;;) {}'; echo "rc=$?"`, runtime.ExecOptions{Timeout: time.Second})
	if r.Status != runtime.StatusTimedOut {
		t.Errorf("run timeout: %s stdout %q stderr %q", r.Status, r.Stdout, r.Stderr)
	}
	hostSettles(t, g0, heap0)
	r = run(t, ws, `node -e 'for (;;) process.stdout.write("x".repeat(65536))'; echo "rc=$?"`, runtime.ExecOptions{Timeout: 30 * time.Second})
	if r.Status != runtime.StatusFailed || !strings.Contains(r.Error+string(r.Stderr), "exceeds the limit MaxOutputBytes (1048576)") {
		t.Errorf("endless output: %s error %q stderr %q", r.Status, r.Error, r.Stderr)
	}
	hostSettles(t, g0, heap0)
	if r := run(t, ws, `node -p '"ok"'`); string(r.Stdout) != "ok\n" {
		t.Errorf("healthy run after: %q %q", r.Stdout, r.Stderr)
	}
}

// A script whose #! line names node (or python) runs under it.
func TestShebang(t *testing.T) {
	ws := openWSJS(t, map[string]string{
		"tool.js": "#!/usr/bin/env node\nconsole.log('tool', process.argv.slice(2).join(' '));\n",
		"x.py":    "#!/usr/bin/python3\nprint(1)\n",
		"s.sh":    "#!/bin/bash\necho shell $1\n",
	})
	r := run(t, ws, `chmod +x tool.js x.py s.sh; ./tool.js a b; ./s.sh q; ./x.py; echo "rc=$?"`)
	if string(r.Stdout) != "tool a b\nshell q\nrc=127\n" || !strings.HasPrefix(string(r.Stderr), "python3: command not found: there is no Python") {
		t.Errorf("stdout %q stderr %q", r.Stdout, r.Stderr)
	}
}

// The files a nested run changes are in the shell run's change report.
func TestNodeChangesReported(t *testing.T) {
	ws := openWSJS(t, map[string]string{"old.txt": "x\n", "keep.txt": "k\n", "gone.txt": "g\n"})
	r := run(t, ws, `node -e '
const fs = require("fs");
fs.writeFileSync("new.txt", "1");
fs.appendFileSync("old.txt", "y\n");
fs.mkdirSync("d/e", { recursive: true });
fs.renameSync("keep.txt", "d/kept.txt");
fs.unlinkSync("gone.txt");
fs.writeFileSync("tmp.txt", "t"); fs.unlinkSync("tmp.txt");'
echo shell > s.txt`)
	c := changesOf(t, r).Changes
	got := fmt.Sprintf("%v %v %v %v %v", c.Created, c.Updated, c.Deleted, c.DirsCreated, c.DirsDeleted)
	want := "[/workspace/d/kept.txt /workspace/new.txt /workspace/s.txt] [/workspace/old.txt] [/workspace/gone.txt /workspace/keep.txt] [/workspace/d /workspace/d/e] []"
	if got != want {
		t.Errorf("changes %s\nwant    %s\n(stderr %q)", got, want, r.Stderr)
	}
}
