package shell_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
)

// curl and wget go through the workspace's outbound policy.
func TestCurlWget(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hello.txt":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "hello\n")
		case "/echo":
			b, _ := io.ReadAll(r.Body)
			fmt.Fprintf(w, "%s %s ct=%s x=%s body=%s\n", r.Method, r.URL.RawQuery, r.Header.Get("Content-Type"), r.Header.Get("X-Test"), b)
		case "/missing":
			http.Error(w, "nope", http.StatusNotFound)
		case "/big":
			w.Write(make([]byte, 2<<20))
		default:
			http.Redirect(w, r, "/hello.txt", http.StatusFound)
		}
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	ctx := context.Background()
	ws, err := nook.Open(ctx, filepath.Join(t.TempDir(), "w.db"), nook.WithBackends(shell.New(shell.Options{})),
		nook.WithOutbound(&runtime.Outbound{AllowHosts: []string{u.Host}, MaxResponseBytes: 1 << 20}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.FS().MkdirAll(ctx, "/workspace", 0o755)
	s := srv.URL
	cases := []struct{ script, want string }{
		{"curl -s " + s + "/hello.txt", "hello\n"},
		{"curl -s -o out.txt " + s + "/hello.txt; cat out.txt", "hello\n"},
		{"curl -sO " + s + "/hello.txt; cat hello.txt", "hello\n"},
		{"curl -s -w '%{http_code}\\n' -o /dev/null " + s + "/missing", "404\n"},
		{"curl -sf " + s + "/missing; echo rc=$?", "rc=22\n"},
		{"curl -sS -X PUT -H 'X-Test: 1' -d a=1 -d b=2 " + s + "/echo", "PUT  ct=application/x-www-form-urlencoded x=1 body=a=1&b=2\n"},
		{"printf '{\"k\":1}' > p.json; curl -s --data-binary @p.json -H 'Content-Type: application/json' " + s + "/echo", "POST  ct=application/json x= body={\"k\":1}\n"},
		{"curl -s -G -d q=x " + s + "/echo", "GET q=x ct= x= body=\n"},
		{"curl -s --json '{\"a\":2}' " + s + "/echo", "POST  ct=application/json x= body={\"a\":2}\n"},
		{"curl -sI " + s + "/hello.txt | head -1", "HTTP/1.1 200 OK\r\n"},
		{"curl -sL " + s + "/redirect", "hello\n"},
		{"curl -s " + s + "/big; echo rc=$?", "rc=63\n"},
		{"curl -s http://example.invalid/; echo rc=$?", "rc=7\n"},
		{"wget -q " + s + "/hello.txt; cat hello.txt", "hello\n"},
		{"wget -qO- " + s + "/hello.txt", "hello\n"},
		{"wget -q " + s + "/missing; echo rc=$?", "rc=8\n"},
		{"wget -q -O got --post-data 'z=9' " + s + "/echo; cat got", "POST  ct=application/x-www-form-urlencoded x= body=z=9\n"},
	}
	for _, c := range cases {
		r := run(t, ws, c.script)
		if string(r.Stdout) != c.want {
			t.Errorf("%s:\nstdout %q, want %q\nstderr %q", c.script, r.Stdout, c.want, r.Stderr)
		}
	}
	r := run(t, ws, "curl -S -s http://example.invalid/")
	if !strings.Contains(string(r.Stderr), "curl: (7) example.invalid is not in the workspace's allowed hosts") {
		t.Errorf("denied host: stderr %q", r.Stderr)
	}
}

// Without an outbound policy the network is off, and says so.
func TestCurlNetworkOff(t *testing.T) {
	ws := openWS(t, nil)
	r := run(t, ws, "curl https://example.com/; echo rc=$?; wget https://example.com/; echo rc=$?")
	if string(r.Stdout) != "rc=7\nrc=4\n" {
		t.Fatalf("stdout %q", r.Stdout)
	}
	want := "curl: (7) network is off: the workspace has no outbound network policy (the embedder enables it with nook.WithOutbound)\n"
	if !strings.HasPrefix(string(r.Stderr), want) || !strings.Contains(string(r.Stderr), "wget: network is off") {
		t.Fatalf("stderr %q", r.Stderr)
	}
}
