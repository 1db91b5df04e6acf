//go:build wasmconformance

package wasm

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/internal/hostcopy"
	"github.com/nookdev/nook/runtime"
	nwasm "github.com/nookdev/nook/runtime/wasm"
)

// The packages whose tests run, and their results under wazero over a host
// directory when this suite was written (pass/fail/skip, top-level tests).
var packages = []string{"os", "io/fs", "path/filepath", "testing/fstest"}

// knownGaps are tests that pass over a host directory and not over a
// workspace, with why; they do not fail the suite (any other does).
var knownGaps = map[string]string{
	"os.TestRootRenameAfterOpen": "wazero joins paths to a directory descriptor's name (fails over the host directory too)",
}

// counts are the results of one run of one test binary.
type counts struct {
	pass, fail, skip map[string]bool
}

func (c counts) String() string {
	return fmt.Sprintf("%d pass / %d fail / %d skip", len(c.pass), len(c.fail), len(c.skip))
}

var resultLine = regexp.MustCompile(`^--- (PASS|FAIL|SKIP): (\S+)`)

// parse counts the top-level test results of -test.v output.
func parse(out []byte) counts {
	c := counts{pass: map[string]bool{}, fail: map[string]bool{}, skip: map[string]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := resultLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		switch m[1] {
		case "PASS":
			c.pass[m[2]] = true
		case "FAIL":
			c.fail[m[2]] = true
		case "SKIP":
			c.skip[m[2]] = true
		}
	}
	return c
}

// buildTests builds the test binary of pkg for wasip1 into dir.
func buildTest(t *testing.T, dir, pkg string) string {
	out := filepath.Join(dir, strings.ReplaceAll(pkg, "/", "_")+".test.wasm")
	cmd := exec.Command("go", "test", "-c", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c %s: %v\n%s", pkg, err, b)
	}
	return out
}

func goroot(t *testing.T) string {
	b, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// guestEnv is the environment of a test binary of pkg.
func guestEnv(pkg string) map[string]string {
	return map[string]string{
		"PWD":    "/goroot/src/" + pkg,
		"TMPDIR": "/tmp",
		"GOROOT": "/goroot",
		"HOME":   "/tmp",
	}
}

var args = []string{"-test.v", "-test.timeout=10m"}

// runHost runs bin under plain wazero with the host directory root
// mounted as the guest's /.
func runHost(t *testing.T, bin, root, pkg string) []byte {
	ctx := context.Background()
	code, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(true))
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	var out bytes.Buffer
	cfg := wazero.NewModuleConfig().WithArgs(append([]string{pkg + ".test"}, args...)...).
		WithStdout(&out).WithStderr(&out).
		WithSysWalltime().WithSysNanotime().WithSysNanosleep().
		WithFSConfig(wazero.NewFSConfig().WithDirMount(root, "/"))
	env := guestEnv(pkg)
	for k, v := range env {
		cfg = cfg.WithEnv(k, v)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	_, err = r.InstantiateWithConfig(ctx, code, cfg)
	if err != nil {
		t.Logf("%s on the host directory: %v", pkg, err)
	}
	return out.Bytes()
}

// runWorkspace runs bin (a workspace path) in ws.
func runWorkspace(t *testing.T, ws *nook.Workspace, bin, pkg string) []byte {
	ctx := context.Background()
	h, err := ws.Runtime().Exec(ctx, bin, runtime.ExecOptions{Backend: "wasm", Args: args, Env: guestEnv(pkg),
		Timeout: 10 * time.Minute, Cwd: path.Join("/workspace/goroot/src", pkg)})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := append(append([]byte{}, res.Stdout...), res.Stderr...)
	if res.Truncated {
		for _, p := range []string{res.StdoutPath, res.StderrPath} {
			if p != "" {
				if b, err := ws.FS().ReadFile(ctx, p); err == nil {
					out = append(out, b...)
				}
			}
		}
	}
	t.Logf("%s in the workspace: %s %s", pkg, res.Status, res.Error)
	return out
}

func TestStdlib(t *testing.T) {
	ctx := context.Background()
	gr := goroot(t)
	bins := t.TempDir()
	host := t.TempDir()
	for _, d := range []string{"tmp", "goroot/src"} {
		if err := os.MkdirAll(filepath.Join(host, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := nook.Open(ctx, filepath.Join(t.TempDir(), "w.db"),
		nook.WithBackends(nwasm.New(nwasm.Options{Mount: "/"})),
		nook.WithRuntime(runtime.Options{Limits: runtime.Limits{MaxOutputBytes: 64 << 20, MaxCalls: 50_000_000}}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	fsys := ws.FS()
	for _, d := range []string{"/workspace/tmp", "/workspace/goroot/src", "/workspace/bin"} {
		if err := fsys.MkdirAll(ctx, d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The packages' sources and testdata, and what their tests read
	// elsewhere in GOROOT.
	pkgs := packages
	if only := os.Getenv("NOOK_WASM_PKGS"); only != "" {
		pkgs = strings.Fields(only)
	}
	for _, dir := range append([]string{"unicode"}, pkgs...) {
		src := filepath.Join(gr, "src", dir)
		if err := hostcopy.Tree(src, filepath.Join(host, "goroot/src", dir)); err != nil {
			t.Fatal(err)
		}
		if _, err := fsys.Import(ctx, "/workspace/goroot/src/"+dir, os.DirFS(src), nil); err != nil {
			t.Fatal(err)
		}
	}
	// Go's os tests stat $GOROOT/go.env and list $GOROOT looking for
	// CONTRIBUTING.md: copy GOROOT's top-level files.
	top, _ := os.ReadDir(gr)
	for _, e := range top {
		if !e.Type().IsRegular() {
			continue
		}
		if b, err := os.ReadFile(filepath.Join(gr, e.Name())); err == nil {
			os.WriteFile(filepath.Join(host, "goroot", e.Name()), b, 0o644)
			fsys.WriteFile(ctx, "/workspace/goroot/"+e.Name(), b, nil)
		}
	}
	var summary []string
	for _, pkg := range pkgs {
		bin := buildTest(t, bins, pkg)
		b, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		wbin := "/workspace/bin/" + filepath.Base(bin)
		if err := fsys.WriteFile(ctx, wbin, b, nil); err != nil {
			t.Fatal(err)
		}
		hostOut := runHost(t, bin, host, pkg)
		wsOut := runWorkspace(t, ws, wbin, pkg)
		hc, wc := parse(hostOut), parse(wsOut)
		os.WriteFile(filepath.Join(os.TempDir(), "nook-wasm-"+strings.ReplaceAll(pkg, "/", "_")+".host.txt"), hostOut, 0o644)
		os.WriteFile(filepath.Join(os.TempDir(), "nook-wasm-"+strings.ReplaceAll(pkg, "/", "_")+".workspace.txt"), wsOut, 0o644)
		line := fmt.Sprintf("%-15s host directory: %s   workspace: %s", pkg, hc, wc)
		summary = append(summary, line)
		var lost, gained []string
		for name := range hc.pass {
			if !wc.pass[name] && knownGaps[pkg+"."+name] == "" {
				lost = append(lost, name)
			}
		}
		for name := range wc.pass {
			if !hc.pass[name] {
				gained = append(gained, name)
			}
		}
		sort.Strings(lost)
		sort.Strings(gained)
		if len(gained) > 0 {
			summary = append(summary, "    passing only in the workspace: "+strings.Join(gained, " "))
		}
		var fails []string
		for n := range wc.fail {
			if gap := knownGaps[pkg+"."+n]; gap != "" {
				summary = append(summary, fmt.Sprintf("    known gap: %s (%s)", n, gap))
				continue
			}
			fails = append(fails, n)
		}
		// The claim the README makes: over a workspace, at least the passes
		// and at most the skips of a host directory, and never an empty run
		// (a harness that ran nothing would otherwise pass).
		if len(hc.pass) == 0 || len(wc.pass) == 0 {
			t.Errorf("%s: no test passed (host directory: %s, workspace: %s): the harness ran nothing", pkg, hc, wc)
		}
		if len(wc.pass) < len(hc.pass) {
			t.Errorf("%s: fewer passes in the workspace (%d) than on a host directory (%d)", pkg, len(wc.pass), len(hc.pass))
		}
		if len(wc.skip) > len(hc.skip) {
			t.Errorf("%s: more skips in the workspace (%d) than on a host directory (%d)", pkg, len(wc.skip), len(hc.skip))
		}
		if len(lost) > 0 || len(fails) > 0 {
			sort.Strings(fails)
			t.Errorf("%s: passing on a host directory but not in the workspace: %v; failing in the workspace: %v", pkg, lost, fails)
		}
	}
	for _, l := range summary {
		t.Log(l)
		fmt.Println(l)
	}
}
