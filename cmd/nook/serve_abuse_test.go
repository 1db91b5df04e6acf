package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// rssKiB reads a process's resident memory.
func rssKiB(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	m := regexp.MustCompile(`VmRSS:\s+(\d+) kB`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no VmRSS in %s", b)
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// The inputs that once took a host down, sent to `nook serve` over MCP the
// way a client with a token could: each run ends with its named error,
// the server stays up and small, and the calls after them work.
func TestServeSurvivesAbusiveRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs programs up to their limits; runs without -short")
	}
	w := newWS(t)
	cmd := exec.Command(nookBin, "--db", w.db, "serve", "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "NOOK_DB=", "NOOK_TOKEN=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
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
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "abuse-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: m[1], HTTPClient: http.DefaultClient, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	exec := func(backend, src string, timeoutMs int) string {
		t.Helper()
		r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec",
			Arguments: map[string]any{"command": src, "backend": backend, "timeoutMs": timeoutMs}})
		if err != nil {
			t.Fatalf("exec %q: %v", src, err)
		}
		var b strings.Builder
		for _, c := range r.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	for _, tc := range []struct {
		backend, src string
		timeoutMs    int
		want         string
	}{
		{"js", `JSON.parse("[".repeat(3e6) + "]".repeat(3e6))`, 20000, "MaxNestingDepth"},
		{"js", `eval("(".repeat(1e6) + ")".repeat(1e6))`, 20000, "MaxNestingDepth"},
		{"js", `let o=[1]; for (let i=0;i<30;i++) o=[o,o]; JSON.stringify(o)`, 2000, "timed out"},
		{"js", `Array.prototype.sort.call({length: 2**30})`, 20000, "exceeds the limit"},
		{"js", `const a = []; for (;;) a.push(new Array(1e6).fill(1))`, 30000, "MaxMemoryBytes"},
		{"shell", `x=$(yes | head -c 1000000000); echo ${#x}`, 20000, "MaxAllocBytes"},
		{"shell", `f(){ f|f; }; f`, 20000, "MaxProcesses"},
	} {
		if got := exec(tc.backend, tc.src, tc.timeoutMs); !strings.Contains(got, tc.want) {
			t.Errorf("%s %q: the result does not name %q:\n%s", tc.backend, tc.src, tc.want, got)
		}
	}
	if got := exec("js", `export default () => 6 * 7`, 10000); !strings.Contains(got, "value: 42") {
		t.Errorf("a healthy run after them: %s", got)
	}
	r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ls", Arguments: map[string]any{"path": "/"}})
	if err != nil || r.IsError {
		t.Errorf("ls after them: %v %+v", err, r)
	}
	// The server process stays small: the runs' memory was the workers'.
	time.Sleep(time.Second)
	if kib := rssKiB(t, cmd.Process.Pid); kib > 512<<10 {
		t.Errorf("nook serve holds %d KiB resident after the runs", kib)
	}
}
