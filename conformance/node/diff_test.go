package node

import (
	"bytes"
	"context"
	"embed"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
)

//go:embed testdata/diff/*.mjs
var diffPrograms embed.FS

// TestDifferential runs each program of testdata/diff with the node on
// PATH, in an empty host directory, and in nook's JavaScript backend, in
// an empty workspace whose runtime also has the shell backend (what
// node:child_process runs commands on), and compares their stdout byte for
// byte and their exit status. It is skipped where node is not installed.
func TestDifferential(t *testing.T) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed (apt-get install -y nodejs): the differential test compares nook's output with node's")
	}
	ver, _ := exec.Command(nodeBin, "--version").Output()
	t.Logf("comparing with node %s", strings.TrimSpace(string(ver)))
	names, _ := diffPrograms.ReadDir("testdata/diff")
	backends := []runtime.Backend{js.New(js.Options{}), shell.New(shell.Options{})}
	for _, n := range names {
		t.Run(n.Name(), func(t *testing.T) {
			src, _ := diffPrograms.ReadFile(path.Join("testdata/diff", n.Name()))
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, n.Name()), src, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, nodeBin, n.Name())
			cmd.Dir = dir
			cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir}
			var nodeOut bytes.Buffer
			cmd.Stdout = &nodeOut
			nodeCode := 0
			if err := cmd.Run(); err != nil {
				ee, ok := err.(*exec.ExitError)
				if !ok {
					t.Fatalf("node: %v", err)
				}
				nodeCode = ee.ExitCode()
			}
			out, code, stderr := runNook(t, backends, n.Name(), src)
			if out != nodeOut.String() || code != nodeCode {
				t.Errorf("nook and node differ (status %d vs %d)\n--- nook stdout\n%s--- node stdout\n%s--- nook stderr\n%s",
					code, nodeCode, out, nodeOut.String(), stderr)
			}
		})
	}
}

// runNook runs the program name in a fresh workspace as node would run a
// file in its working directory, with the environment node gets.
func runNook(t *testing.T, backends []runtime.Backend, name string, src []byte) (stdout string, code int, stderr string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ws, err := nook.OpenMemory(ctx, nook.WithBackends(backends...))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if err := ws.FS().MkdirAll(ctx, "/workspace", 0); err != nil {
		t.Fatal(err)
	}
	if err := ws.FS().WriteFile(ctx, "/workspace/"+name, src, nil); err != nil {
		t.Fatal(err)
	}
	h, err := ws.Runtime().Exec(ctx, "import \"./"+name+"\";\n", runtime.ExecOptions{ID: "diff", Backend: "js",
		Cwd: "/workspace", Env: map[string]string{"PATH": "/usr/bin:/bin", "HOME": "/workspace"}})
	if err != nil {
		t.Fatalf("exec: %v", err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatalf("result: %v", err)
	}
	return string(res.Stdout), res.ExitCode, string(res.Stderr)
}
