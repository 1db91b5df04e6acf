package main

import (
	"bytes"
	"context"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestNodeUsage(t *testing.T) {
	w := newWS(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"node", "--data", t.TempDir()}, "nook: node: --name and --data are required"},
		{[]string{"node", "--name", "n1", "--data", t.TempDir(), "--nats-url", "nats://127.0.0.1:4222", "--nats-listen", "127.0.0.1:0"},
			"nook: node: --nats-url joins a cluster: not with --nats-listen or --nats-routes"},
		{[]string{"node", "--name", "n1", "--data", t.TempDir(), "--on-interrupt", "retry"},
			`nook: node: --on-interrupt "retry": want fail, restart or replay`},
		{[]string{"node", "--name", "n1", "--data", t.TempDir(), "--http", "0.0.0.0:0"},
			`nook: node: refusing to listen on "0.0.0.0:0" without a token: use a loopback address or set --token-file or $NOOK_TOKEN`},
	} {
		if os.Getenv("NOOK_TOKEN") != "" && strings.Contains(c.want, "without a token") {
			continue
		}
		r := w.run(c.args...)
		if r.code != 2 || !strings.HasPrefix(r.stderr, c.want+"\n") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
	r := w.run("node", "--name", "bad.name", "--data", t.TempDir())
	if r.code != 1 || !strings.Contains(r.stderr, `node name "bad.name": want 1 to 64 of A-Z a-z 0-9 - _`) {
		t.Errorf("bad node name: %+v", r)
	}
}

// A node serves as "nook serve" does: /readyz without a token lists the
// fleet's checks and the worker pool's; a js exec through a workspace's
// MCP endpoint runs in the process tier; /metrics, behind the token,
// counts the tool calls, the runs, the worker's run and the workspace
// served; the workspace's console is at /w/alpha/, and another's is not
// served by this node.
func TestNodeServes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a fleet node (JetStream)")
	}
	tokenFile := filepath.Join(t.TempDir(), "token")
	const token = "tok-node-secret-91c4"
	os.WriteFile(tokenFile, []byte(token+"\n"), 0o600)
	addr := freeAddr(t)
	cmd := exec.Command(nookBin, "node", "--name", "n1", "--data", t.TempDir(), "--http", addr, "--token-file", tokenFile)
	cmd.Env = append(os.Environ(), "NOOK_DB=", "NOOK_TOKEN=")
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-exited })
	base := "http://" + addr
	get := func(path string, auth bool) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", base+path, nil)
		if auth {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if code, _ := get("/healthz", false); code == 200 {
			break
		}
		select {
		case <-exited:
			t.Fatalf("the node exited: %v; stderr:\n%s", cmd.ProcessState, stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the node did not serve within a minute; stderr:\n%s", stderr.String())
		}
	}
	code, body := get("/readyz", false)
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	wantPrefixes := []string{"ok nats: connected to nats://127.0.0.1:", "ok fleet: node n1 live (heartbeat written ",
		"ok leases: no workspace served", "ok workers: a worker can be had ("}
	if code != 200 || len(lines) != len(wantPrefixes) {
		t.Fatalf("/readyz = %d %q", code, body)
	}
	for i, p := range wantPrefixes {
		if !strings.HasPrefix(lines[i], p) {
			t.Errorf("/readyz line %d = %q, want it to start %q", i+1, lines[i], p)
		}
	}

	ctx := context.Background()
	hc := &http.Client{Transport: headerTransport{"Authorization", "Bearer " + token}}
	client := sdk.NewClient(&sdk.Implementation{Name: "node-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: base + "/w/alpha/mcp", HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{
		"command": "export default () => 1", "backend": "js"}})
	if err != nil || r.IsError {
		t.Fatalf("exec through the node: %v %+v", err, r)
	}
	if code, _ := get("/metrics", false); code != 401 {
		t.Errorf("/metrics without the token = %d, want 401", code)
	}
	code, body = get("/metrics", true)
	if code != 200 {
		t.Fatalf("/metrics = %d %s", code, body)
	}
	_, value := parseMetrics(t, []byte(body))
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"nook_tool_calls_total", map[string]string{"tool": "exec", "result": "ok"}, 1},
		{"nook_runs_finished_total", map[string]string{"backend": "js", "status": "completed"}, 1},
		{"nook_worker_runs_total", nil, 1},
		{"nook_fleet_workspaces_served", nil, 1},
		{"nook_fleet_nodes_live", nil, 1},
		{"nook_mcp_requests_total", map[string]string{"method": "tools/call", "result": "ok"}, 1},
	} {
		if got, ok := value(c.name, c.labels); !ok || got != c.want {
			t.Errorf("%s%v = %v (found %v), want %v", c.name, c.labels, got, ok, c.want)
		}
	}
	if _, ok := value("nook_http_requests_total", map[string]string{"route": "/w/{ws}/mcp"}); !ok {
		t.Error("no nook_http_requests_total for route /w/{ws}/mcp")
	}
	// The console of the workspace the node owns, under /w/alpha/.
	jar, _ := cookiejar.New(nil)
	bc := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := bc.Get(base + "/w/alpha/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/w/alpha/login" {
		t.Fatalf("GET /w/alpha/: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, err = bc.Get(base + "/w/alpha/login")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatalf("login page: %s", b)
	}
	resp, err = bc.PostForm(base+"/w/alpha/login", url.Values{"csrf": {html.UnescapeString(m[1])}, "token": {token}, "name": {"Ada"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/w/alpha/approvals" {
		t.Fatalf("console login: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, err = bc.Get(base + "/w/alpha/runs")
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `href="/w/alpha/run?id=`) || !strings.Contains(string(b), "completed") {
		t.Errorf("the console's runs page: %d\n%s", resp.StatusCode, b)
	}
	if code, body := get("/w/beta/", false); code != http.StatusMisdirectedRequest || body != "workspace beta is not served by node n1\n" {
		t.Errorf("the console of a workspace not served here: %d %q", code, body)
	}

	time.Sleep(readyCache + 100*time.Millisecond) // past the last check's cache
	if _, body := get("/readyz", false); !strings.Contains(body, "ok leases: 1 workspace served, its lease held\n") {
		t.Errorf("/readyz after a call: %q", body)
	}
}

// freeAddr returns a loopback address whose port was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// lockedBuffer is a bytes.Buffer a process may write while a test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
