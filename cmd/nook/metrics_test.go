package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// "nook serve"'s /metrics, behind the token, after a known workload: two
// reads that succeed and one that fails, a run that completes and one that
// times out. The text parses with Prometheus's own parser and each counter
// has the exact value; neither the token nor a query string is in it. In
// the process tier the worker pool's counters are there too.
func TestServeMetrics(t *testing.T) {
	for _, iso := range []string{"in-process", "process"} {
		t.Run(iso, func(t *testing.T) { testServeMetrics(t, iso) })
	}
}

func testServeMetrics(t *testing.T, iso string) {
	w := newWS(t)
	w.put("/a.txt", "a\n")
	tokenFile := filepath.Join(t.TempDir(), "token")
	const token = "tok-metrics-secret-5d2e"
	os.WriteFile(tokenFile, []byte(token+"\n"), 0o600)
	_, mcpURL := startServeLogged(t, w, nil, "--token-file", tokenFile, "--isolation", iso)
	base := strings.TrimSuffix(mcpURL, "/mcp")
	ctx := context.Background()
	hc := &http.Client{Transport: headerTransport{"Authorization", "Bearer " + token}}
	client := sdk.NewClient(&sdk.Implementation{Name: "metrics-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: mcpURL + "?sig=query-secret-77", HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any) {
		t.Helper()
		if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args}); err != nil {
			t.Fatal(err)
		}
	}
	call("read", map[string]any{"path": "/a.txt"})
	call("read", map[string]any{"path": "/a.txt"})
	call("read", map[string]any{"path": "/missing.txt"})
	call("exec", map[string]any{"command": "export default () => 1", "backend": "js"})
	call("exec", map[string]any{"command": "while (true) {}", "backend": "js", "timeoutMs": 100})

	// Without the token: 401, counted.
	if resp, err := http.Get(base + "/metrics"); err != nil || resp.StatusCode != 401 {
		t.Fatalf("GET /metrics without the token: %v %v", resp, err)
	}
	req, _ := http.NewRequest("GET", base+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("GET /metrics = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, secret := range []string{token, "query-secret", "sig="} {
		if strings.Contains(string(body), secret) {
			t.Errorf("/metrics holds %q", secret)
		}
	}
	fams, value := parseMetrics(t, body)
	want := func(name string, labels map[string]string, v float64) {
		t.Helper()
		got, ok := value(name, labels)
		if !ok || got != v {
			t.Errorf("%s%v = %v (found %v), want %v", name, labels, got, ok, v)
		}
	}
	want("nook_tool_calls_total", map[string]string{"tool": "read", "result": "ok"}, 2)
	want("nook_tool_calls_total", map[string]string{"tool": "read", "result": "error"}, 1)
	want("nook_tool_calls_total", map[string]string{"tool": "exec", "result": "ok"}, 1)
	want("nook_tool_calls_total", map[string]string{"tool": "exec", "result": "error"}, 1)
	want("nook_tool_call_duration_seconds", map[string]string{"tool": "read"}, 3)
	want("nook_runs_started_total", map[string]string{"backend": "js"}, 2)
	want("nook_runs_finished_total", map[string]string{"backend": "js", "status": "completed"}, 1)
	want("nook_runs_finished_total", map[string]string{"backend": "js", "status": "timed_out"}, 1)
	want("nook_run_limit_trips_total", map[string]string{"backend": "js", "limit": "Timeout"}, 1)
	want("nook_run_duration_seconds", map[string]string{"backend": "js", "status": "timed_out"}, 1)
	want("nook_mcp_requests_total", map[string]string{"method": "tools/call", "result": "ok"}, 3)
	want("nook_mcp_requests_total", map[string]string{"method": "tools/call", "result": "error"}, 2)
	want("nook_http_requests_total", map[string]string{"route": "/metrics", "code": "401"}, 1)
	want("nook_approvals_waiting", nil, 0)
	want("nook_mcp_sessions", nil, 1)
	if v, ok := value("nook_vfs_entries", nil); !ok || v < 2 { // the root, /a.txt and what the workspace keeps
		t.Errorf("nook_vfs_entries = %v %v, want at least 2", v, ok)
	}
	want("nook_vfs_bytes", nil, 2)
	var feed struct{ Changes []json.RawMessage }
	if err := json.Unmarshal([]byte(w.ok("changes", "--json")), &feed); err != nil {
		t.Fatal(err)
	}
	want("nook_vfs_changes", nil, float64(len(feed.Changes)))
	if v, ok := value("nook_db_file_bytes", map[string]string{"file": "db"}); !ok || v <= 0 {
		t.Errorf("nook_db_file_bytes{file=db} = %v %v", v, ok)
	}
	if iso == "process" {
		want("nook_worker_runs_total", nil, 2)
		want("nook_worker_kills_total", map[string]string{"reason": "crash"}, 0)
		want("nook_worker_kills_total", map[string]string{"reason": "limit"}, 0)
		want("nook_worker_starts_total", map[string]string{"result": "failed"}, 0)
		if v, ok := value("nook_worker_starts_total", map[string]string{"result": "ok"}); !ok || v < 1 {
			t.Errorf("nook_worker_starts_total{result=ok} = %v %v", v, ok)
		}
		if v, ok := value("nook_worker_wait_seconds_total", nil); !ok || v <= 0 {
			t.Errorf("nook_worker_wait_seconds_total = %v %v", v, ok)
		}
		if _, ok := value("nook_worker_cold_starts_total", nil); !ok {
			t.Error("no nook_worker_cold_starts_total")
		}
	} else if _, ok := fams["nook_worker_runs_total"]; ok {
		t.Error("worker counters in process")
	}
	if _, ok := fams["nook_http_requests_total"]; ok {
		for _, m := range fams["nook_http_requests_total"].Metric {
			for _, l := range m.Label {
				if l.GetName() == "route" && !strings.HasPrefix(l.GetValue(), "/") && l.GetValue() != "other" {
					t.Errorf("route label %q", l.GetValue())
				}
			}
		}
	}
}

// parseMetrics parses a /metrics body with Prometheus's own parser and
// returns its families and the lookup of a sample by name and labels (a
// histogram's value is its count).
func parseMetrics(t *testing.T, body []byte) (map[string]*dto.MetricFamily, func(name string, labels map[string]string) (float64, bool)) {
	t.Helper()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("the Prometheus parser: %v\n%s", err, body)
	}
	return fams, func(name string, labels map[string]string) (float64, bool) {
		f := fams[name]
		if f == nil {
			return 0, false
		}
	next:
		for _, m := range f.Metric {
			got := map[string]string{}
			for _, l := range m.Label {
				got[l.GetName()] = l.GetValue()
			}
			for k, v := range labels {
				if got[k] != v {
					continue next
				}
			}
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				return m.Counter.GetValue(), true
			case dto.MetricType_GAUGE:
				return m.Gauge.GetValue(), true
			case dto.MetricType_HISTOGRAM:
				return float64(m.Histogram.GetSampleCount()), true
			}
		}
		return 0, false
	}
}
