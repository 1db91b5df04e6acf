//go:build linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The MCP tier-equivalence test: conformance/mcpclient/client.mjs, on the
// official TypeScript SDK (whose client validates every tool result
// against the tool's outputSchema and throws on a mismatch), runs its
// script of calls against "nook mcp" (stdio) and "nook serve" (HTTP on
// loopback, with a token), each in the process tier (the default) and in
// process. Every call must come back without the client throwing, and
// every result must be the same, byte for byte, in all four, once what is
// truly run-specific is masked (see runSpecific).

// mcpClientDir is the harness, relative to this package.
const mcpClientDir = "../../conformance/mcpclient"

// needNode returns node's and npm's paths, or skips the test when they are
// not installed, unless CI is set, where their absence is a failure
// (.ci/run installs them).
func needNode(t *testing.T) (node, npm string) {
	t.Helper()
	var errs []string
	for _, name := range []string{"node", "npm"} {
		p, err := exec.LookPath(name)
		if err != nil {
			errs = append(errs, name)
		}
		if name == "node" {
			node = p
		} else {
			npm = p
		}
	}
	if len(errs) > 0 {
		msg := strings.Join(errs, " and ") + " not installed: the TypeScript SDK tier test cannot run"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node, npm
}

// mcpClient installs the harness's locked dependencies (npm ci) once per
// package-lock.json into a cache under os.TempDir(), copies client.mjs
// beside them, and returns the script's path there.
func mcpClient(t *testing.T, npm string) string {
	t.Helper()
	lock, err := os.ReadFile(filepath.Join(mcpClientDir, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(lock)
	dir := filepath.Join(os.TempDir(), "nook-mcpclient", hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
			t.Fatal(err)
		}
		tmp, err := os.MkdirTemp(filepath.Dir(dir), "install-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		for _, f := range []string{"package.json", "package-lock.json"} {
			b, err := os.ReadFile(filepath.Join(mcpClientDir, f))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(tmp, f), b, 0o644)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = tmp
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", mcpClientDir, err, out)
		}
		// Publish the finished install in one rename; a concurrent run
		// that won the race leaves its copy in place.
		if err := os.Rename(tmp, dir); err != nil {
			if _, serr := os.Stat(dir); serr != nil {
				t.Fatal(err)
			}
		}
	}
	src, err := os.ReadFile(filepath.Join(mcpClientDir, "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(dir, "client-*.mjs") // beside node_modules
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(f.Name()) })
	f.Write(src)
	f.Close()
	return f.Name()
}

// The masks of what is run-specific: a run's id (a new ULID for every
// run), when it was created (nook exec --json), how long it took (the wall
// clock: "in 12 ms", durationMs, and how far past its limit a timed-out
// run got), and a file's modification time (the wall clock of the write
// the script made, in ls). Nothing else
// differs between two runs of the script, whatever the tier.
var runSpecific = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`"id":"[0-9A-HJKMNP-TV-Z]{26}"`), `"id":"<run id>"`},
	{regexp.MustCompile(`"created":"\d{4}-\d\d-\d\dT[0-9:.]+Z"`), `"created":"<time>"`},
	{regexp.MustCompile(`"durationMs":\d+`), `"durationMs":0`},
	{regexp.MustCompile(`(completed|failed|cancelled|timed out)\) in \d+ ms`), `$1) in <d> ms`},
	{regexp.MustCompile(`timed out after \d+ ms`), `timed out after <d> ms`},
	{regexp.MustCompile(`"mtime":\d+`), `"mtime":0`},
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`), `<mtime>`},
}

func maskRunSpecific(b []byte) []byte {
	for _, m := range runSpecific {
		b = m.re.ReplaceAll(b, []byte(m.with))
	}
	return b
}

// mcpRun is what client.mjs printed.
type mcpRun struct {
	Server  json.RawMessage
	Tools   []string
	Results []json.RawMessage
}

type mcpResult struct {
	Name            string
	HasOutputSchema bool
	Thrown          string
	Result          *struct {
		IsError           bool
		StructuredContent json.RawMessage
	}
}

// runClient runs the harness and parses its output.
func runClient(t *testing.T, node string, args ...string) mcpRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\nstdout: %s\nstderr: %s", strings.Join(args[1:], " "), err, stdout.String(), stderr.String())
	}
	var r mcpRun
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("client output: %v\n%s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	return r
}

// startServe starts "nook serve" on a loopback port with a token and
// returns its URL.
func startTokenServe(t *testing.T, db string, extra ...string) string {
	t.Helper()
	tokenFile := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tokenFile, []byte("tier-token\n"), 0o600)
	args := append([]string{"--db", db}, extra...)
	cmd := exec.Command(nookBin, append(args, "serve", "--addr", "127.0.0.1:0", "--token-file", tokenFile)...)
	cmd.Env = append(os.Environ(), "NOOK_DB=", "NOOK_TOKEN=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	if !sc.Scan() {
		t.Fatalf("serve printed nothing: %v", sc.Err())
	}
	m := regexp.MustCompile(`serving MCP at (http://127\.0\.0\.1:\d+/mcp)`).FindStringSubmatch(sc.Text())
	if m == nil {
		t.Fatalf("serve printed %q", sc.Text())
	}
	go func() {
		for sc.Scan() {
		}
	}()
	return m[1]
}

// TestMCPTiersTypeScriptSDK: the script's calls validate against their
// tools' output schemas in both tiers, over stdio and HTTP, and the
// results are the same in all four.
func TestMCPTiersTypeScriptSDK(t *testing.T) {
	node, npm := needNode(t)
	script := mcpClient(t, npm)
	type config struct{ name, transport, isolation string }
	configs := []config{
		{"stdio, process tier", "stdio", "process"},
		{"stdio, in process", "stdio", "in-process"},
		{"http, process tier", "http", "process"},
		{"http, in process", "http", "in-process"},
	}
	var base [][]byte
	var baseRun mcpRun
	compared := 0
	for _, c := range configs {
		db := filepath.Join(t.TempDir(), "ws.db")
		var r mcpRun
		if c.transport == "stdio" {
			r = runClient(t, node, script, "stdio", nookBin, db, c.isolation)
		} else {
			url := startTokenServe(t, db, "--isolation", c.isolation)
			r = runClient(t, node, script, "http", url, "tier-token")
		}
		// The client validates every structuredContent against its
		// tool's outputSchema (a failed run's too) and throws on a
		// mismatch; a tool error without one (isError: a missing file,
		// a bad argument) has nothing to validate.
		validated, bare, thrown := 0, 0, 0
		for i, raw := range r.Results {
			var res mcpResult
			if err := json.Unmarshal(raw, &res); err != nil {
				t.Fatal(err)
			}
			switch {
			case res.Thrown != "":
				thrown++
				t.Errorf("%s: call %d (%s): the client threw: %s", c.name, i, res.Name, res.Thrown)
			case !res.HasOutputSchema:
				t.Errorf("%s: call %d (%s): the tool has no outputSchema", c.name, i, res.Name)
			case len(res.Result.StructuredContent) > 0:
				validated++
			case res.Result.IsError:
				bare++
			default:
				t.Errorf("%s: call %d (%s) returned no structured content: %s", c.name, i, res.Name, raw)
			}
		}
		t.Logf("%s: %d calls: %d results validated against their outputSchema by the SDK, %d tool errors without structured content, %d thrown",
			c.name, len(r.Results), validated, bare, thrown)
		masked := make([][]byte, len(r.Results))
		for i, raw := range r.Results {
			masked[i] = maskRunSpecific(raw)
		}
		if base == nil {
			base, baseRun = masked, r
			if len(r.Results) < 40 {
				t.Fatalf("the script made %d calls", len(r.Results))
			}
			// It calls every tool the server lists.
			called := map[string]bool{}
			for _, raw := range r.Results {
				var res mcpResult
				json.Unmarshal(raw, &res)
				called[res.Name] = true
			}
			for _, name := range r.Tools {
				if !called[name] {
					t.Errorf("the script does not call the tool %s", name)
				}
			}
			continue
		}
		if !bytes.Equal(r.Server, baseRun.Server) || strings.Join(r.Tools, ",") != strings.Join(baseRun.Tools, ",") {
			t.Errorf("%s: server %s tools %v; %s: server %s tools %v", c.name, r.Server, r.Tools, configs[0].name,
				baseRun.Server, baseRun.Tools)
		}
		if len(masked) != len(base) {
			t.Fatalf("%s: %d results, %s: %d", c.name, len(masked), configs[0].name, len(base))
		}
		n, differ := 0, 0
		for i := range masked {
			if !bytes.Equal(masked[i], base[i]) {
				differ++
				t.Errorf("call %d differs:\n%s: %s\n%s: %s", i, configs[0].name, base[i], c.name, masked[i])
			}
			n += len(masked[i])
		}
		compared += n
		t.Logf("%s: %d results (%d bytes) compared byte for byte with %s: %d differ", c.name, len(masked), n,
			configs[0].name, differ)
	}
	t.Logf("%d bytes compared in all", compared)
}

// TestCLITiers: "nook --json tool" and "nook exec" print the same in
// both tiers, run-specific values masked.
func TestCLITiers(t *testing.T) {
	type call struct {
		stdin []byte
		args  []string
	}
	calls := []call{
		{nil, []string{"--json", "tool", "write", `{"path":"/workspace/a/b.txt","content":"bee\n"}`}},
		{nil, []string{"--json", "tool", "exec", `{"command":"echo x >> a/b.txt; mkdir d; rm -r d; cat a/b.txt"}`}},
		{nil, []string{"--json", "tool", "exec", `{"command":"true"}`}},
		{nil, []string{"--json", "tool", "exec", `{"command":"ls /nope"}`}},
		{nil, []string{"--json", "tool", "exec", `{"backend":"js","command":"export default (x) => [x, [], {}]","input":{"k":[]}}`}},
		{nil, []string{"--json", "tool", "grep", `{"query":"x"}`}},
		{nil, []string{"exec", "--backend", "shell", "-e", "echo hi; echo no >&2; exit 4"}},
		{nil, []string{"--json", "exec", "--backend", "shell", "-e", "touch t; rm a/b.txt"}},
		{nil, []string{"--json", "exec", "--input", `{"n":[1,{}]}`, "-e", "export default (x) => x"}},
		{[]byte("in\xff"), []string{"--json", "exec", "--stdin", "--backend", "shell", "-e", "cat; printf '\\xfe'"}},
	}
	outs := map[string][]string{}
	for _, iso := range []string{"process", "in-process"} {
		w := newWSSerial(t)
		for _, c := range calls {
			r := w.runIn(c.stdin, append([]string{"--isolation", iso}, c.args...)...)
			outs[iso] = append(outs[iso], fmt.Sprintf("exit %d\n%s\n%s", r.code, maskRunSpecific([]byte(r.stdout)),
				maskRunSpecific([]byte(r.stderr))))
		}
	}
	n := 0
	for i := range calls {
		if outs["process"][i] != outs["in-process"][i] {
			t.Errorf("nook %s:\nprocess tier:\n%s\nin process:\n%s", strings.Join(calls[i].args, " "),
				outs["process"][i], outs["in-process"][i])
		}
		n += len(outs["process"][i])
	}
	// The bug this guards against: gob dropped the empty lists.
	if !strings.Contains(outs["process"][2], `"changes":{"created":[],"updated":[],"deleted":[],"dirsCreated":[],"dirsDeleted":[]}`) {
		t.Errorf("exec true in the process tier: %s", outs["process"][2])
	}
	t.Logf("%d CLI calls, %d bytes compared", len(calls), n)
}

// newWSSerial is newWS for a test that does not run in parallel.
func newWSSerial(t *testing.T) *ws {
	return &ws{t: t, db: filepath.Join(t.TempDir(), "ws", "workspace.db")}
}

// TestVersionLandlock: a nook built as go build builds it (with cgo where a
// C compiler is) runs its workers under Landlock when the kernel has it.
func TestVersionLandlock(t *testing.T) {
	abi, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		t.Skipf("the kernel has no Landlock (%v)", e)
	}
	w := newWS(t)
	out := w.ok("version")
	if want := fmt.Sprintf("landlock ABI %d,", abi); !strings.Contains(out, want) {
		t.Fatalf("nook version:\n%s\nwant %q", out, want)
	}
	t.Logf("%s", out)
}
