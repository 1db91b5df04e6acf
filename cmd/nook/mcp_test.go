package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func testPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.RGBA{G: 180, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// toolNames lists the tools this build of nook has.
func toolNames(w *ws, readOnly bool) []string {
	w.t.Helper()
	args := []string{"--json", "tools", "list"}
	if readOnly {
		args = append(args, "--read-only")
	}
	var list []struct{ Name string }
	if err := json.Unmarshal([]byte(w.ok(args...)), &list); err != nil {
		w.t.Fatal(err)
	}
	var names []string
	for _, e := range list {
		names = append(names, e.Name)
	}
	return names
}

func has(names []string, name string) bool { return slices.Contains(names, name) }

func TestToolCommand(t *testing.T) {
	w := newWS(t)
	names := toolNames(w, false)
	if !has(names, "ls") || !has(names, "read") {
		t.Fatalf("nook tools lacks ls or read (has %v)", names)
	}
	w.put("/src/main.go", "package main\n")
	w.put("/notes.md", "hello\n")

	out := w.ok("tool", "ls", `{"path":"/"}`)
	if !strings.Contains(out, "notes.md") || !strings.Contains(out, "src") {
		t.Errorf("tool ls: %q", out)
	}
	// Arguments from stdin; the default is {}.
	if got := w.okIn([]byte(`{"path":"/"}`), "tool", "ls", "-"); got != out {
		t.Errorf("tool ls - = %q, want %q", got, out)
	}
	if got := w.ok("tool", "ls"); got != out {
		t.Errorf("tool ls (no args) = %q, want %q", got, out)
	}

	// --json: the whole result, before or after the command name.
	for _, args := range [][]string{{"--json", "tool", "ls", `{"path":"/"}`}, {"tool", "--json", "ls", `{"path":"/"}`}} {
		var res struct {
			Content []struct {
				Type, Text string
			}
			Structured map[string]any
			IsError    bool
		}
		if err := json.Unmarshal([]byte(w.ok(args...)), &res); err != nil {
			t.Fatal(err)
		}
		if res.IsError || len(res.Content) == 0 || res.Content[0].Type != "text" || !strings.Contains(res.Content[0].Text, "notes.md") || res.Structured == nil {
			t.Errorf("%v: %+v", args, res)
		}
	}

	// An image reads as a note in text mode and as base64 data in JSON.
	pngData := testPNG(t)
	w.okIn(pngData, "put", "/img.png")
	if out := w.ok("tool", "read", `{"path":"/img.png"}`); !regexp.MustCompile(`(?m)^\[image: image/png, \d+ B\]$`).MatchString(out) {
		t.Errorf("tool read png: %q", out)
	}
	var img struct {
		Content []struct {
			Type, MimeType string
			Data           []byte
		}
	}
	if err := json.Unmarshal([]byte(w.ok("tool", "--json", "read", `{"path":"/img.png"}`)), &img); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range img.Content {
		found = found || (c.Type == "image" && c.MimeType == "image/png" && bytes.Equal(c.Data, pngData))
	}
	if !found {
		t.Errorf("tool --json read png: no image content")
	}

	// A tool failure: exit 1, the message on stderr; with --json the result
	// is still printed.
	r := w.run("tool", "read", `{"path":"/nope"}`)
	if r.code != 1 || r.stdout != "" || !strings.HasPrefix(r.stderr, "nook: ") || !strings.Contains(r.stderr, "/nope") {
		t.Errorf("tool read missing: %+v", r)
	}
	r = w.run("--json", "tool", "read", `{"path":"/nope"}`)
	if r.code != 1 || !strings.Contains(r.stdout, `"isError":true`) || !strings.Contains(r.stdout, "/nope") {
		t.Errorf("tool --json read missing: %+v", r)
	}
	r = w.run("tool", "frob", `{}`)
	if r.code != 1 || !strings.Contains(r.stderr, `unknown tool "frob"`) {
		t.Errorf("unknown tool: %+v", r)
	}
	r = w.run("tool", "ls", `{"path":`)
	if r.code != 1 || !strings.Contains(r.stderr, "invalid arguments for ls") {
		t.Errorf("bad JSON: %+v", r)
	}
	if !has(names, "write") {
		t.Fatalf("nook tools lacks write (has %v)", names)
	}
	w.ok("tool", "write", `{"path":"/w.txt","content":"written\n"}`)
	equal(t, "cat after tool write", w.ok("cat", "/w.txt"), "written\n")
	r = w.run("tool", "--read-only", "write", `{"path":"/w2.txt","content":"x"}`)
	if r.code != 1 || !strings.Contains(r.stderr, `unknown tool "write"`) {
		t.Errorf("write with --read-only: %+v", r)
	}
	w.fail(2, "", "tool")
}

// checkStrict checks that every object schema in v is closed and requires
// all its properties.
func checkStrict(t *testing.T, where string, v any) {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		props, hasProps := v["properties"].(map[string]any)
		typ := v["type"]
		isObject := hasProps || typ == "object" || (func() bool {
			a, ok := typ.([]any)
			return ok && slices.Contains(a, any("object"))
		})()
		if isObject {
			if v["additionalProperties"] != false {
				t.Errorf("%s: additionalProperties = %v", where, v["additionalProperties"])
			}
			req, _ := v["required"].([]any)
			for name := range props {
				if !slices.Contains(req, any(name)) {
					t.Errorf("%s: property %s not required", where, name)
				}
			}
		}
		for k, e := range v {
			checkStrict(t, where+"/"+k, e)
		}
	case []any:
		for _, e := range v {
			checkStrict(t, where, e)
		}
	}
}

func TestToolsSchemaCommand(t *testing.T) {
	w := newWS(t)
	names := toolNames(w, false)
	if len(names) == 0 {
		t.Fatal("no tools")
	}
	var strict []struct {
		Type     string
		Function struct {
			Name       string
			Parameters map[string]any
			Strict     bool
		}
	}
	if err := json.Unmarshal([]byte(w.ok("tools", "schema", "--format", "openai-strict")), &strict); err != nil {
		t.Fatal(err)
	}
	if len(strict) != len(names) {
		t.Fatalf("openai-strict: %d tools, want %d", len(strict), len(names))
	}
	for i, f := range strict {
		// exec's free-form input and env map cannot be strict: it is
		// exported as it is, without "strict".
		wantStrict := f.Function.Name != "exec"
		if f.Type != "function" || f.Function.Name != names[i] || f.Function.Strict != wantStrict {
			t.Errorf("openai-strict tool %d: %+v", i, f)
		}
		if wantStrict {
			checkStrict(t, f.Function.Name, f.Function.Parameters)
		}
	}

	var mcpDoc struct{ Tools []map[string]any }
	if err := json.Unmarshal([]byte(w.ok("tools", "schema")), &mcpDoc); err != nil || len(mcpDoc.Tools) != len(names) {
		t.Errorf("tools schema (mcp): %v, %d tools", err, len(mcpDoc.Tools))
	}
	for _, format := range []string{"mcp", "openai", "anthropic"} {
		var v any
		if err := json.Unmarshal([]byte(w.ok("tools", "schema", "--format", format)), &v); err != nil {
			t.Errorf("tools schema --format %s: %v", format, err)
		}
	}
	ro := toolNames(w, true)
	var roDoc []any
	if err := json.Unmarshal([]byte(w.ok("tools", "schema", "--format", "anthropic", "--read-only")), &roDoc); err != nil || len(roDoc) != len(ro) {
		t.Errorf("read-only anthropic schema: %v, %d tools, want %d", err, len(roDoc), len(ro))
	}
	if out := w.ok("tools"); !strings.HasPrefix(out, names[0]+" ") {
		t.Errorf("tools: %q", out)
	}
	w.fail(2, "", "tools", "schema", "--format", "gemini")
	w.fail(2, "", "tools", "frob")
	if _, err := os.Stat(w.db); err == nil {
		t.Errorf("tools created the workspace")
	}
}

// connectStdio starts "nook mcp" with the Go SDK's command transport.
func connectStdio(t *testing.T, w *ws, args ...string) *sdk.ClientSession {
	t.Helper()
	return connectStdioEnv(t, w, nil, args...)
}

// connectStdioEnv is connectStdio with more environment variables.
func connectStdioEnv(t *testing.T, w *ws, env []string, args ...string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(nookBin, append([]string{"--db", w.db, "mcp"}, args...)...)
	cmd.Env = append(append(os.Environ(), "NOOK_DB="), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := sdk.NewClient(&sdk.Implementation{Name: "nook-cli-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to nook mcp: %v\nstderr: %s", err, stderr.String())
	}
	t.Cleanup(func() {
		cs.Close()
		if stderr.Len() > 0 {
			t.Logf("nook mcp stderr: %s", stderr.String())
		}
	})
	return cs
}

func TestMCPStdio(t *testing.T) {
	w := newWS(t)
	w.put("/a/b.txt", "bee\n")
	names := toolNames(w, false)
	cs := connectStdio(t, w)
	ctx := context.Background()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, mt := range res.Tools {
		got = append(got, mt.Name)
	}
	if !reflect.DeepEqual(sorted(got), sorted(names)) {
		t.Errorf("tools/list: %v, want %v", got, names)
	}
	r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ls", Arguments: map[string]any{"path": "/a"}})
	if err != nil || r.IsError || r.StructuredContent == nil {
		t.Errorf("ls over stdio: %v %+v", err, r)
	}
	ro := connectStdio(t, w, "--read-only")
	res, err = ro.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, mt := range res.Tools {
		if !mt.Annotations.ReadOnlyHint {
			t.Errorf("mcp --read-only serves %s", mt.Name)
		}
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestServe(t *testing.T) {
	w := newWS(t)
	w.put("/hello.txt", "hi\n")
	names := toolNames(w, false)

	// No token: loopback only.
	for _, addr := range []string{"0.0.0.0:0", ":0", "example.com:0"} {
		r := w.run("serve", "--addr", addr)
		if r.code != 2 || !strings.Contains(r.stderr, "without a token") {
			t.Errorf("serve --addr %s without a token: %+v", addr, r)
		}
	}
	tokenFile := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tokenFile, nil, 0o600)
	if r := w.run("serve", "--token-file", tokenFile); r.code != 2 || !strings.Contains(r.stderr, "is empty") {
		t.Errorf("empty token file: %+v", r)
	}
	os.WriteFile(tokenFile, []byte("tok-123\n"), 0o600)

	cmd, url := startServeCmd(t, w, "--token-file", tokenFile)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dial := func(token string) (*sdk.ClientSession, error) {
		hc := &http.Client{Transport: headerTransport{"Authorization", "Bearer " + token}}
		client := sdk.NewClient(&sdk.Implementation{Name: "nook-cli-test", Version: "1"}, nil)
		return client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1}, nil)
	}
	if cs, err := dial("wrong"); err == nil {
		cs.Close()
		t.Errorf("connected with a wrong token")
	}
	cs, err := dial("tok-123")
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil || len(res.Tools) != len(names) {
		t.Errorf("tools/list over HTTP: %v, %d tools, want %d", err, len(res.Tools), len(names))
	}
	r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "read", Arguments: map[string]any{"path": "/hello.txt"}})
	if err != nil || r.IsError {
		t.Errorf("read over HTTP: %v %+v", err, r)
	}
	// The server's version is nook's.
	if v, want := cs.InitializeResult().ServerInfo.Version, strings.Fields(w.ok("version"))[1]; v != want {
		t.Errorf("MCP server version %q, nook version %q", v, want)
	}
	cs.Close()

	// Interrupted, serve exits 0.
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve after SIGINT: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("serve did not stop after SIGINT")
	}
}

// startServeCmd starts "nook serve" on a loopback port with args and returns
// the process (killed when the test ends) and the MCP endpoint it printed.
// The rest of its stderr goes to the test's log, and to logged when given.
func startServeCmd(t *testing.T, w *ws, args ...string) (*exec.Cmd, string) {
	return startServeLogged(t, w, nil, args...)
}

// lineLog collects lines written by another goroutine.
type lineLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *lineLog) add(s string) {
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.mu.Unlock()
}

func (l *lineLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.lines)
}

func startServeLogged(t *testing.T, w *ws, logged *lineLog, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(nookBin, append([]string{"--db", w.db, "serve", "--addr", "127.0.0.1:0"}, args...)...)
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
	line := sc.Text()
	m := regexp.MustCompile(`^nook: serving MCP at (http://127\.0\.0\.1:\d+/mcp) \((bearer token required|no token); workspace .*\)$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("serve printed %q", line)
	}
	go func() {
		for sc.Scan() {
			if logged != nil {
				logged.add(sc.Text())
			}
			t.Logf("serve stderr: %s", sc.Text())
		}
	}()
	return cmd, m[1]
}

type headerTransport struct{ key, value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.key, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// tsSDKVersion is the TypeScript MCP SDK the interoperability test drives
// nook with.
const tsSDKVersion = "1.32.2"

// tsClient is the interoperability script: the TypeScript SDK's own client
// spawns "nook --db DB mcp", lists the tools, calls ls, reads a PNG and a
// missing file, and prints what it got as one JSON document.
const tsClient = `
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, db] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: bin,
  args: ["--db", db, "mcp"],
  env: { ...process.env, NOOK_DB: "" },
  stderr: "inherit",
});
const client = new Client({ name: "nook-ts-test", version: "1.0.0" });
await client.connect(transport);
const call = async (name, args) => {
  try {
    return await client.callTool({ name, arguments: args });
  } catch (e) {
    return { thrown: String(e) };
  }
};
const out = {
  server: client.getServerVersion(),
  tools: (await client.listTools()).tools,
  ls: await call("ls", { path: "/" }),
  png: await call("read", { path: "/img.png" }),
  missing: await call("read", { path: "/no/such/file" }),
};
await client.close();
process.stdout.write(JSON.stringify(out));
`

// npmSDK installs the TypeScript SDK once per version into a cache under
// os.TempDir() and returns that directory.
func npmSDK(t *testing.T) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: skipping the TypeScript SDK interoperability test")
	}
	dir := filepath.Join(os.TempDir(), "nook-mcp-npm-cache", tsSDKVersion)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err == nil {
		return dir
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "install-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	os.WriteFile(filepath.Join(tmp, "package.json"), []byte(`{"private":true}`+"\n"), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--loglevel=error", "@modelcontextprotocol/sdk@"+tsSDKVersion)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("npm install @modelcontextprotocol/sdk@%s failed (%v): skipping\n%s", tsSDKVersion, err, out)
	}
	// Publish the finished install in one rename; a concurrent run that won
	// the race leaves its copy in place.
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(dir); serr != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestMCPTypeScriptClient(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the TypeScript SDK interoperability test (npm install)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: skipping the TypeScript SDK interoperability test")
	}
	w := newWS(t)
	names := toolNames(w, false)
	for _, name := range []string{"ls", "read"} {
		if !has(names, name) {
			t.Fatalf("nook tools lacks %s (has %v)", name, names)
		}
	}
	dir := npmSDK(t)
	pngData := testPNG(t)
	w.okIn(pngData, "put", "/img.png")
	w.put("/docs/readme.md", "# hi\n")

	script, err := os.CreateTemp(dir, "client-*.mjs") // beside node_modules
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(script.Name())
	script.WriteString(tsClient)
	script.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script.Name(), nookBin, w.db)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node client: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	type content struct {
		Type, Text, MimeType, Data string
	}
	type result struct {
		Content           []content
		StructuredContent map[string]any
		IsError           bool
		Thrown            string
	}
	var out struct {
		Server struct{ Name, Version string }
		Tools  []struct {
			Name        string
			InputSchema map[string]any
			Annotations map[string]any
		}
		LS, PNG, Missing result
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("node client output: %v\n%s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	if out.Server.Name != "nook" {
		t.Errorf("server name %q", out.Server.Name)
	}

	// The tools and their input schemas, as the TypeScript client sees them,
	// are the ones "nook tools schema" prints.
	var exported struct {
		Tools []struct {
			Name        string
			InputSchema map[string]any
		}
	}
	if err := json.Unmarshal([]byte(w.ok("tools", "schema")), &exported); err != nil {
		t.Fatal(err)
	}
	if len(out.Tools) != len(exported.Tools) {
		t.Errorf("TypeScript client sees %d tools, want %d", len(out.Tools), len(exported.Tools))
	}
	for _, want := range exported.Tools {
		i := slices.IndexFunc(out.Tools, func(tt struct {
			Name        string
			InputSchema map[string]any
			Annotations map[string]any
		}) bool {
			return tt.Name == want.Name
		})
		if i < 0 {
			t.Errorf("TypeScript client lacks tool %s", want.Name)
			continue
		}
		if !reflect.DeepEqual(out.Tools[i].InputSchema, want.InputSchema) {
			t.Errorf("%s: inputSchema seen by the TypeScript client:\n%v\nwant\n%v", want.Name, out.Tools[i].InputSchema, want.InputSchema)
		}
		if out.Tools[i].Annotations["openWorldHint"] != false {
			t.Errorf("%s: annotations %v", want.Name, out.Tools[i].Annotations)
		}
	}

	// The TypeScript client validates structured content against each
	// tool's output schema: a mismatch would have thrown.
	if r := out.LS; r.Thrown != "" || r.IsError || len(r.Content) == 0 || r.Content[0].Type != "text" ||
		!strings.Contains(r.Content[0].Text, "img.png") || r.StructuredContent == nil {
		t.Errorf("ls: %+v", r)
	}
	found := false
	for _, c := range out.PNG.Content {
		if c.Type == "image" && c.MimeType == "image/png" {
			data, err := base64.StdEncoding.DecodeString(c.Data)
			found = err == nil && bytes.Equal(data, pngData)
		}
	}
	if out.PNG.Thrown != "" || out.PNG.IsError || !found {
		t.Errorf("read png: %+v", out.PNG)
	}
	if r := out.Missing; r.Thrown != "" || !r.IsError || len(r.Content) == 0 || !strings.Contains(r.Content[0].Text, "/no/such/file") {
		t.Errorf("read missing: %+v", r)
	}
	if t.Failed() {
		t.Logf("node stderr: %s", stderr.String())
	}
}

// The tools' new options go through "nook tool" as JSON arguments: read's
// tail and paths, edit's dryRun, ls's depth and sort.
func TestToolCommandNewOptions(t *testing.T) {
	w := newWS(t)
	w.put("/w/a.txt", "one\ntwo\nthree\n")
	w.put("/w/d/b.txt", "bee\n")
	if got, want := w.ok("tool", "read", `{"path":"/w/a.txt","tail":1}`), "3\tthree\n\n[Showing lines 3-3 of 3. Earlier lines: read with offset=2, limit=1.]\n"; got != want {
		t.Errorf("tail: %q, want %q", got, want)
	}
	if got, want := w.ok("tool", "read", `{"paths":["/w/a.txt","/w/d/b.txt"],"limit":1}`),
		"==> /w/a.txt <==\n1\tone\n\n[Showing line 1; stopped at the limit of 1 lines. To continue, read with offset=2, byteOffset=4.]\n\n==> /w/d/b.txt <==\n1\tbee\n"; got != want {
		t.Errorf("paths: %q, want %q", got, want)
	}
	if got, want := w.ok("tool", "edit", `{"path":"/w/a.txt","edits":[{"oldText":"two","newText":"2"}],"dryRun":true}`),
		"Dry run, nothing changed: would edit /w/a.txt: edit 1 at line 2 matched exactly.\n--- a/w/a.txt\n+++ b/w/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"; got != want {
		t.Errorf("edit dry run: %q, want %q", got, want)
	}
	if got := w.ok("tool", "ls", `{"path":"/w","depth":2,"sort":"size"}`); !strings.Contains(got, "d/\t0\t") || !strings.Contains(got, "\n  b.txt\t4\t") {
		t.Errorf("ls depth 2: %q", got)
	}
	if got := w.ok("cat", "/w/a.txt"); got != "one\ntwo\nthree\n" {
		t.Errorf("the dry run changed the file: %q", got)
	}
}

// "nook serve --publish" end to end: the publish tool over MCP, the link
// fetched with curl (and Go's client) before its expiry with the bytes
// published, refused when forged (403), after the file changed and after
// the expiry (410, no content); without --publish, and read-only, there
// is no publish tool.
func TestServePublish(t *testing.T) {
	w := newWS(t)
	report := "id,score\n1,0.5\n2,0.75\n"
	w.put("/out/report.csv", report)
	w.put("/out/other.txt", "other\n")
	tokenFile := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tokenFile, []byte("tok-publish\n"), 0o600)
	_, url := startServeCmd(t, w, "--token-file", tokenFile, "--publish")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hc := &http.Client{Transport: headerTransport{"Authorization", "Bearer tok-publish"}}
	client := sdk.NewClient(&sdk.Implementation{Name: "nook-publish-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	publish := func(path string, ms int) (string, int64) {
		t.Helper()
		r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "publish", Arguments: map[string]any{"path": path, "expiresAfterMs": ms}})
		if err != nil || r.IsError {
			t.Fatalf("publish %s: %v %+v", path, err, r)
		}
		m, _ := r.StructuredContent.(map[string]any)
		link, _ := m["url"].(string)
		at, _ := m["expiresAt"].(float64)
		if m["ok"] != true || m["path"] != path || !strings.HasPrefix(link, strings.TrimSuffix(url, "/mcp")+"/p/") {
			t.Fatalf("publish %s = %v", path, m)
		}
		return link, int64(at)
	}
	fetch := func(link string) (int, string) {
		t.Helper()
		resp, err := http.Get(link) // no bearer token: the signature is the authority
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	link, _ := publish("/out/report.csv", 60_000)
	if code, body := fetch(link); code != 200 || body != report {
		t.Errorf("GET link = %d %q", code, body)
	}
	if curl, err := exec.LookPath("curl"); err == nil {
		out, err := exec.Command(curl, "-sS", "-f", link).Output()
		if err != nil || string(out) != report {
			t.Errorf("curl link: %v %q", err, out)
		}
		out, _ = exec.Command(curl, "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-r", "9-15", link).Output()
		if string(out) != "206" {
			t.Errorf("curl range: %s", out)
		}
	}
	// A forged signature.
	i := strings.LastIndex(link, "/")
	flip := byte('A')
	if link[i-1] == 'A' {
		flip = 'B'
	}
	forged := link[:i-1] + string(flip) + link[i:]
	if code, body := fetch(forged); code != 403 || body != "invalid link signature\n" {
		t.Errorf("forged GET = %d %q", code, body)
	}
	// The expiry ends a link.
	short, at := publish("/out/other.txt", 3000)
	if code, body := fetch(short); code != 200 || body != "other\n" {
		t.Errorf("GET before expiry = %d %q", code, body)
	}
	if left := at - time.Now().UnixMilli(); left > 3000 {
		t.Errorf("expiresAt is %d ms from now, want at most 3000", left)
	}
	// A change to the file ends its link.
	w.put("/out/report.csv", "changed\n")
	if code, body := fetch(link); code != 410 || body != "the published file has changed since it was published\n" {
		t.Errorf("GET after a change = %d %q", code, body)
	}
	time.Sleep(time.Until(time.UnixMilli(at)) + 50*time.Millisecond)
	if code, body := fetch(short); code != 410 || body != "this link has expired\n" {
		t.Errorf("GET after expiry = %d %q", code, body)
	}

	// Over MCP the tool is listed; without --publish, and read-only, it is not.
	res, err := cs.ListTools(ctx, nil)
	if err != nil || !slices.ContainsFunc(res.Tools, func(tl *sdk.Tool) bool { return tl.Name == "publish" }) {
		t.Errorf("tools/list of serve --publish: %v, no publish", err)
	}
	if names := toolNames(w, false); slices.Contains(names, "publish") {
		t.Errorf("serve without --publish lists publish: %v", names)
	}
	if r := w.run("serve", "--publish", "--read-only"); r.code != 2 || !strings.Contains(r.stderr, "a read-only server has no publish tool") {
		t.Errorf("serve --publish --read-only: %+v", r)
	}
}

// "nook mcp" sends traces where the OTEL_* environment says, as "nook
// serve" does: the MCP request's span and its tool call's, flushed when
// the client disconnects.
func TestMCPStdioTraces(t *testing.T) {
	var mu sync.Mutex
	var got []string
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.URL.Path+" "+string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer collector.Close()
	w := newWS(t)
	w.put("/a.txt", "a\n")
	cs := connectStdioEnv(t, w, []string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=" + collector.URL + "/v1/traces",
		"OTEL_SERVICE_NAME=nook-stdio-test"})
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "read", Arguments: map[string]any{"path": "/a.txt"}}); err != nil {
		t.Fatal(err)
	}
	cs.Close()
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		all := strings.Join(got, "\n")
		mu.Unlock()
		if strings.Contains(all, "tools/call read") && strings.Contains(all, "execute_tool read") {
			if !strings.Contains(all, "/v1/traces ") || !strings.Contains(all, "nook-stdio-test") {
				t.Errorf("the collector got %q", all)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no spans of the tool call reached the collector: %q", all)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
