package shell_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
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
