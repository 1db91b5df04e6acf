package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// /healthz and /readyz of "nook serve": unauthenticated, plain text; /readyz
// turns 503 while another process holds the workspace's writer lock and
// 200 again once it lets go. Every request is one JSON log line with
// neither the token nor a published link's signature in it.
func TestServeHealth(t *testing.T) {
	sqlite, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("sqlite3 is not installed: it holds the workspace's lock in this test")
	}
	w := newWS(t)
	w.put("/a.txt", "a\n")
	tokenFile := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tokenFile, []byte("tok-health-secret\n"), 0o600)
	var logged lineLog
	_, mcpURL := startServeLogged(t, w, &logged, "--token-file", tokenFile, "--log-format", "json", "--publish")
	base := strings.TrimSuffix(mcpURL, "/mcp")
	get := func(method, path string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	if code, body := get("GET", "/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("GET /healthz = %d %q", code, body)
	}
	if code, _ := get("POST", "/healthz"); code != 405 {
		t.Errorf("POST /healthz = %d, want 405", code)
	}
	readyOK := regexp.MustCompile(`^ok database: writable\nok lease: renewed [0-9.]+(µs|ms|s|m[0-9.]+s) ago\nok workers: (none: runs are in process|a worker can be had \(\d+ idle, \d+ busy\))\n$`)
	if code, body := get("GET", "/readyz"); code != 200 || !readyOK.MatchString(body) {
		t.Errorf("GET /readyz = %d %q", code, body)
	}
	// A request to the MCP endpoint with the token, and a published link
	// (a forged one will do): neither the token nor the link's token may
	// reach the log.
	req, _ := http.NewRequest("GET", mcpURL, nil)
	req.Header.Set("Authorization", "Bearer tok-health-secret")
	req.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
	if code, _ := get("GET", "/p/eyJwIjoiL2EudHh0In0.c2lnbmF0dXJl/a.txt?x=secret-query"); code != 403 {
		t.Errorf("forged link = %d, want 403", code)
	}

	// Another process holds the writer lock: not ready.
	lock := exec.Command(sqlite, w.db)
	stdin, _ := lock.StdinPipe()
	if err := lock.Start(); err != nil {
		t.Fatal(err)
	}
	defer lock.Process.Kill()
	io.WriteString(stdin, "BEGIN IMMEDIATE;\nSELECT 'locked';\n")
	time.Sleep(1100 * time.Millisecond) // past the readiness cache
	if code, body := get("GET", "/readyz"); code != 503 || !strings.HasPrefix(body, "fail database: ") || !strings.Contains(body, "\nok workers: ") {
		t.Errorf("GET /readyz with the database locked = %d %q", code, body)
	}
	if code, body := get("GET", "/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("GET /healthz with the database locked = %d %q", code, body)
	}
	stdin.Close() // sqlite3 exits, and the lock goes with it
	lock.Wait()
	time.Sleep(1100 * time.Millisecond)
	if code, body := get("GET", "/readyz"); code != 200 || !readyOK.MatchString(body) {
		t.Errorf("GET /readyz after the lock = %d %q", code, body)
	}

	// The log: one JSON line per request, with no secret in any line.
	deadline := time.Now().Add(5 * time.Second)
	var lines []map[string]any
	for {
		lines = lines[:0]
		for _, l := range logged.all() {
			if strings.Contains(l, "tok-health-secret") || strings.Contains(l, "c2lnbmF0dXJl") || strings.Contains(l, "secret-query") {
				t.Errorf("a secret in the log: %s", l)
			}
			var m map[string]any
			if json.Unmarshal([]byte(l), &m) == nil && m["msg"] == "request" {
				lines = append(lines, m)
			}
		}
		if len(lines) >= 8 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	want := []string{"GET /healthz 200", "POST /healthz 405", "GET /readyz 200", "GET /mcp", "GET /p/… 403", "GET /readyz 503", "GET /healthz 200", "GET /readyz 200"}
	if len(lines) != len(want) {
		t.Fatalf("%d request lines, want %d: %v", len(lines), len(want), lines)
	}
	for i, m := range lines {
		got := m["method"].(string) + " " + m["path"].(string)
		if !strings.HasSuffix(want[i], "/mcp") {
			got += " " + jsonNumber(m["status"])
		}
		if got != want[i] || m["level"] != "INFO" || m["remote"] == nil || m["duration"] == nil || m["bytes"] == nil {
			t.Errorf("request line %d = %v, want %s", i, m, want[i])
		}
		// The request with a traceparent names its trace; the others none.
		if tid, _ := m["trace_id"].(string); (want[i] == "GET /mcp") != (tid == "4bf92f3577b34da6a3ce929d0e0e4736") {
			t.Errorf("request line %d (%s): trace_id %q", i, want[i], tid)
		}
	}
}

func jsonNumber(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// "nook status" runs the same checks: exit 0 and one line per check, the
// database's sizes; --json gives the same as data.
func TestStatusCommand(t *testing.T) {
	w := newWS(t)
	w.put("/a.txt", "a\n")
	out := w.ok("--isolation", "in-process", "status")
	if !regexp.MustCompile(`^ok database: writable\nok lease: renewed [0-9.]+(µs|ms|s) ago\nok workers: none: runs are in process\ndatabase: .*, [0-9.]+ KiB on disk, write-ahead log [0-9.]+ (B|KiB|MiB)\n$`).MatchString(out) {
		t.Errorf("status = %q", out)
	}
	var st struct {
		Ready   bool
		Checks  []check
		DBBytes int64
	}
	if err := json.Unmarshal([]byte(w.ok("--isolation", "in-process", "--json", "status")), &st); err != nil {
		t.Fatal(err)
	}
	if !st.Ready || len(st.Checks) != 3 || st.Checks[0] != (check{"database", true, "writable"}) || st.Checks[1].Name != "lease" || !st.Checks[1].OK || st.DBBytes <= 0 {
		t.Errorf("status --json = %+v", st)
	}
	w.fail(1, "nook: no such workspace: "+filepath.Join(filepath.Dir(w.db), "none.db")+" (ENOENT)\n", "--db", filepath.Join(filepath.Dir(w.db), "none.db"), "status")
}
