package runtime_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/nookdev/nook/runtime"
)

func TestFetchPolicy(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			w.Write([]byte(strings.Repeat("y", 100)))
		case "/away":
			http.Redirect(w, r, "http://elsewhere.invalid/", http.StatusFound)
		default:
			w.Header().Set("X-Test", "1")
			fmt.Fprintf(w, "%s %s", r.Method, r.Header.Get("X-Req"))
		}
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	ws := openWS(t, "", runtime.Options{Outbound: &runtime.Outbound{
		AllowHosts: []string{u.Host}, MaxResponseBytes: 50}})
	src := fmt.Sprintf(`call fetch fetch {"url":"%[1]s/x","method":"post","headers":{"X-Req":"r"}}
call fetch fetch {"url":"%[1]s/big"}
call fetch fetch {"url":"%[1]s/away"}
call fetch fetch {"url":"http://example.com/"}
call fetch fetch {"url":"file:///etc/passwd"}`, srv.URL)
	res := run(t, ws.Runtime(), src, runtime.ExecOptions{})
	lines := strings.Split(strings.TrimSpace(string(res.Stdout)), "\n")
	if len(lines) != 5 {
		t.Fatalf("stdout:\n%s", res.Stdout)
	}
	// []byte bodies encode as base64 in the test backend's JSON: "POST r".
	if !strings.Contains(lines[0], `"body":"UE9TVCBy"`) || !strings.Contains(lines[0], `["x-test","1"]`) ||
		!strings.Contains(lines[0], `"status":200`) {
		t.Errorf("allowed fetch: %s", lines[0])
	}
	want := []string{
		"error: fetch: the response body exceeds 50 bytes (Outbound.MaxResponseBytes)",
		"error: fetch failed: Get \"http://elsewhere.invalid/\": redirect to elsewhere.invalid is not in the workspace's allowed hosts",
		"error: fetch: example.com is not in the workspace's allowed hosts",
		`error: fetch: invalid URL "file:///etc/passwd" (only absolute http and https URLs)`,
	}
	for i, w := range want {
		if lines[i+1] != w {
			t.Errorf("line %d: %q, want %q", i+2, lines[i+1], w)
		}
	}
}
