//go:build wasiconformance

package wasi

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
	"github.com/ulikunitz/xz"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/internal/hostcopy"
	"github.com/nookdev/nook/runtime"
	nwasm "github.com/nookdev/nook/runtime/wasm"
)

// wantNookPasses is how many of the suite's tests nook passes; the suite
// fails below it.
const wantNookPasses = 70

// knownFailures are the tests nook fails, with why (see
// runtime/wasm/RATIONALE.md).
var knownFailures = map[string]string{
	"c/sock_shutdown-invalid_fd": "the test has no root, so the reference runner preopens nothing and fd 3 is invalid; " +
		"nook always preopens the workspace at fd 3, a directory, which is not a socket (ENOTSOCK)",
	"rust/symlink_create": "nook stores an absolute symlink target as the workspace path it names (a guest's /a is " +
		"the workspace's /a); the test wants path_symlink(\"/\", ...) refused",
}

// perTest is the reference runner's timeout.
const perTest = 5 * time.Second

// archive finds the suite's archive.
func archive(t *testing.T) string {
	cands := []string{os.Getenv("NOOK_WASI_TESTSUITE")}
	if wd, err := os.Getwd(); err == nil {
		cands = append(cands, filepath.Join(wd, "../../../shared/conformance/wasi-testsuite-wasip1.tar.xz"))
	}
	cands = append(cands, "/work/shared/conformance/wasi-testsuite-wasip1.tar.xz")
	for _, c := range cands {
		if c == "" {
			continue
		}
		if _, err := os.Stat(c); err == nil {
			return c
		}
	}
	t.Fatalf("the WASI testsuite archive is not at any of %q; set NOOK_WASI_TESTSUITE", cands[1:])
	return ""
}

// extract unpacks the tar.xz file into dir.
func extract(file, dir string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	xr, err := xz.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(xr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Clean(h.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("%s: a path outside the archive", h.Name)
		}
		to := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(to, 0o755)
		case tar.TypeReg:
			if err = os.MkdirAll(filepath.Dir(to), 0o755); err == nil {
				var b []byte
				if b, err = io.ReadAll(io.LimitReader(tr, 64<<20)); err == nil {
					err = os.WriteFile(to, b, 0o644)
				}
			}
		case tar.TypeSymlink:
			err = os.Symlink(h.Linkname, to)
		}
		if err != nil {
			return err
		}
	}
}

// spec is a test's NAME.json.
type spec struct {
	Args     []string          `json:"args"`
	Env      map[string]string `json:"env"`
	Root     string            `json:"root"`
	ExitCode int               `json:"exit_code"`
	Stdout   string            `json:"stdout"`
}

type test struct {
	name string // language/name
	wasm string // the module's host path
	dir  string // the test's directory
	spec spec
}

// outcome is one run of one test.
type outcome struct {
	code           int
	stdout, stderr string
	err            error
}

// judge says why o fails t, or "" when it passes.
func judge(t test, o outcome) string {
	var why []string
	if o.code != t.spec.ExitCode {
		why = append(why, fmt.Sprintf("exit code %d, want %d", o.code, t.spec.ExitCode))
	}
	if !strings.HasPrefix(o.stdout, t.spec.Stdout) {
		why = append(why, fmt.Sprintf("stdout %q, want a prefix %q", clip(o.stdout), t.spec.Stdout))
	}
	if len(why) == 0 {
		return ""
	}
	if o.err != nil {
		why = append(why, firstLine(o.err.Error()))
	}
	// The guest's own message, without the trap's stack trace.
	s := o.stderr
	if i := strings.Index(s, "wasm stack trace:"); i >= 0 {
		s = s[:i]
	}
	if s = strings.TrimSpace(s); s != "" {
		why = append(why, "stderr: "+clip(s))
	}
	return strings.Join(why, "; ")
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func clip(s string) string {
	s = strings.ReplaceAll(s, "\n", " | ")
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// tests lists the suite's tests under root.
func tests(t *testing.T, root string) []test {
	var out []test
	mods, _ := filepath.Glob(filepath.Join(root, "tests", "*", "testsuite", "wasm32-wasip1", "*.wasm"))
	for _, m := range mods {
		dir := filepath.Dir(m)
		base := strings.TrimSuffix(filepath.Base(m), ".wasm")
		lang := filepath.Base(filepath.Dir(filepath.Dir(dir)))
		tc := test{name: lang + "/" + base, wasm: m, dir: dir}
		if b, err := os.ReadFile(filepath.Join(dir, base+".json")); err == nil {
			if err := json.Unmarshal(b, &tc.spec); err != nil {
				t.Fatalf("%s.json: %v", base, err)
			}
		}
		out = append(out, tc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// runNook runs tc in a fresh workspace whose root holds the test's root,
// preopened as /.
func runNook(ctx context.Context, b *nwasm.Backend, tc test, code []byte) outcome {
	ws, err := nook.OpenMemory(ctx, nook.WithBackends(b))
	if err != nil {
		return outcome{code: -1, err: err}
	}
	defer ws.Close()
	fsys := ws.FS()
	if err := fsys.MkdirAll(ctx, "/workspace", 0o755); err != nil {
		return outcome{code: -1, err: err}
	}
	if tc.spec.Root != "" {
		if _, err := fsys.Import(ctx, "/workspace", os.DirFS(filepath.Join(tc.dir, tc.spec.Root)), nil); err != nil {
			return outcome{code: -1, err: err}
		}
	}
	env := tc.spec.Env
	if env == nil {
		env = map[string]string{}
	}
	h, err := ws.Runtime().Exec(ctx, string(code), runtime.ExecOptions{Backend: b.Info().ID, Args: tc.spec.Args,
		Env: env, Timeout: perTest})
	if err != nil {
		return outcome{code: -1, err: err}
	}
	res, err := h.Result(ctx)
	if err != nil {
		return outcome{code: -1, err: err}
	}
	o := outcome{code: res.ExitCode, stdout: string(res.Stdout), stderr: string(res.Stderr)}
	if res.Status == runtime.StatusTimedOut {
		o.err = errors.New("timed out")
	} else if res.Error != "" && res.ExitCode != tc.spec.ExitCode {
		o.err = errors.New(res.Error)
	}
	return o
}

// runWazero runs tc under plain wazero with a copy of the test's root
// mounted as /.
func runWazero(ctx context.Context, r wazero.Runtime, tc test, cm wazero.CompiledModule, scratch string) outcome {
	cfg := wazero.NewModuleConfig().WithName("").WithArgs(append([]string{filepath.Base(tc.wasm)}, tc.spec.Args...)...).
		WithSysWalltime().WithSysNanotime().WithSysNanosleep().WithRandSource(rand.Reader)
	var stdout, stderr bytes.Buffer
	cfg = cfg.WithStdout(&stdout).WithStderr(&stderr)
	if tc.spec.Root != "" {
		dir := filepath.Join(scratch, strings.ReplaceAll(tc.name, "/", "_"))
		if err := hostcopy.Tree(filepath.Join(tc.dir, tc.spec.Root), dir); err != nil {
			return outcome{code: -1, err: err}
		}
		cfg = cfg.WithFSConfig(wazero.NewFSConfig().WithDirMount(dir, "/"))
	}
	for k, v := range tc.spec.Env {
		cfg = cfg.WithEnv(k, v)
	}
	ctx, cancel := context.WithTimeout(ctx, perTest)
	defer cancel()
	m, err := r.InstantiateModule(ctx, cm, cfg)
	o := outcome{stdout: stdout.String(), stderr: stderr.String()}
	if m != nil {
		m.Close(ctx)
	}
	var ee *sys.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		o.code = int(ee.ExitCode())
		if ee.ExitCode() == sys.ExitCodeDeadlineExceeded {
			o.err = errors.New("timed out")
		}
	default:
		o.code, o.err = 1, err
	}
	return o
}

func TestWASITestsuite(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	if err := extract(archive(t), root); err != nil {
		t.Fatal(err)
	}
	all := tests(t, root)
	if len(all) == 0 {
		t.Fatal("no tests in the archive")
	}
	b := nwasm.New(nwasm.Options{Mount: "/"})
	defer b.Close(ctx)
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(true))
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	scratch := t.TempDir()

	var lines, failures []string
	nookPass, wazeroPass := 0, 0
	for _, tc := range all {
		code, err := os.ReadFile(tc.wasm)
		if err != nil {
			t.Fatal(err)
		}
		no := runNook(ctx, b, tc, code)
		nw := judge(tc, no)
		var wo outcome
		if cm, err := r.CompileModule(ctx, code); err != nil {
			wo = outcome{code: -1, err: err}
		} else {
			wo = runWazero(ctx, r, tc, cm, scratch)
			cm.Close(ctx)
		}
		ww := judge(tc, wo)
		mark := func(why string) string {
			if why == "" {
				return "pass"
			}
			return "FAIL"
		}
		if nw == "" {
			nookPass++
		} else {
			reason := nw
			if k := knownFailures[tc.name]; k != "" {
				reason = "known: " + k + " (" + nw + ")"
			}
			failures = append(failures, fmt.Sprintf("nook   %-50s %s", tc.name, reason))
			if os.Getenv("NOOK_WASI_VERBOSE") != "" {
				failures = append(failures, "    nook's stderr:\n"+no.stderr)
				failures = append(failures, "    wazero's stderr:\n"+wo.stderr)
			}
		}
		if ww == "" {
			wazeroPass++
		} else {
			failures = append(failures, fmt.Sprintf("wazero %-50s %s", tc.name, ww))
		}
		lines = append(lines, fmt.Sprintf("%-58s %-6s %-6s", tc.name, mark(nw), mark(ww)))
	}
	fmt.Printf("%-58s %-6s %-6s\n", "test", "nook", "wazero")
	for _, l := range lines {
		fmt.Println(l)
	}
	fmt.Printf("\ntotal: nook %d/%d, plain wazero %d/%d\n\nfailures:\n", nookPass, len(all), wazeroPass, len(all))
	for _, f := range failures {
		fmt.Println("  " + f)
	}
	if nookPass < wantNookPasses {
		t.Errorf("nook passes %d of %d tests, fewer than the expected %d", nookPass, len(all), wantNookPasses)
	}
}
