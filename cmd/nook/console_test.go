package main

import (
	"context"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools"
	"github.com/nookdev/nook/vfs"
)

// "nook serve" end to end through its console: a replay-policy JS run of
// another process waits for approval of a delete; in the console of a real
// "nook serve" a wrong token is refused, the token logs in, a forged
// cross-site answer is refused, the call is in the inbox, and approving it
// there resumes the run in the server, which deletes the file and completes.
func TestServeConsole(t *testing.T) {
	w := newWS(t)
	ctx := context.Background()
	os.MkdirAll(filepath.Dir(w.db), 0o755)
	opts := tools.Options{Hooks: []tools.Hook{tools.RequireApproval(tools.ApprovalPolicy{Tools: []string{"delete"}})}}
	mod, bind := tools.LateModule(opts)
	ws, err := nook.Open(ctx, w.db, nook.WithBackends(backends()...),
		nook.WithModules(map[string]runtime.Module{tools.ModuleName: mod}))
	if err != nil {
		t.Fatal(err)
	}
	opts.Runtime = ws.Runtime()
	bind(tools.New(ws.FS(), opts))
	if err := ws.FS().WriteFile(ctx, "/workspace/old.log", []byte("x"), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
	h, err := ws.Runtime().Exec(ctx, `import tools from "ws:tools";
console.log("asking to delete old.log");
const r = await tools.delete({ path: "/workspace/old.log" });
console.log("deleted");
export default () => ({ deleted: !r.isError });`, runtime.ExecOptions{ID: "cleanup", Backend: "js", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	var pending []runtime.PendingCall
	for range 500 {
		if pending, _ = ws.Runtime().Pending(ctx); len(pending) == 1 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(pending) != 1 || pending[0].RunID != h.ID {
		t.Fatalf("pending: %+v", pending)
	}
	ws.Close() // the run waits, with no process running it

	tokenFile := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tokenFile, []byte("tok-console\n"), 0o600)
	_, mcpURL := startServeCmd(t, w, "--token-file", tokenFile)
	base := strings.TrimSuffix(mcpURL, "/mcp")
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(method, path string, form url.Values, hdr ...string) (int, http.Header, string) {
		t.Helper()
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, _ := http.NewRequest(method, base+path, body)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		res, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if csp := res.Header.Get("Content-Security-Policy"); path != "/healthz" && !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("%s %s: Content-Security-Policy %q", method, path, csp)
		}
		return res.StatusCode, res.Header, string(b)
	}
	field := regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	csrfOf := func(body string) string {
		m := field.FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("no csrf field: %s", body)
		}
		return html.UnescapeString(m[1])
	}

	if code, hd, _ := do("GET", "/", nil); code != http.StatusSeeOther || hd.Get("Location") != "/login" {
		t.Fatalf("GET / without a session: %d %v", code, hd)
	}
	// The console does not take over the other routes.
	if code, _, _ := do("GET", "/healthz", nil); code != 200 {
		t.Errorf("/healthz: %d", code)
	}
	_, _, page := do("GET", "/login", nil)
	if code, _, body := do("POST", "/login", url.Values{"csrf": {csrfOf(page)}, "token": {"tok-wrong"}}); code != http.StatusUnauthorized ||
		!strings.Contains(body, "That is not the token") {
		t.Errorf("wrong token: %d", code)
	}
	_, _, page = do("GET", "/login", nil)
	if code, hd, _ := do("POST", "/login", url.Values{"csrf": {csrfOf(page)}, "token": {"tok-console"}, "name": {"Ada"}}); code != http.StatusSeeOther ||
		!strings.Contains(strings.Join(hd.Values("Set-Cookie"), "\n"), "nook_session=") {
		t.Fatalf("login: %d %v", code, hd)
	}
	code, _, inbox := do("GET", "/approvals", nil)
	if code != 200 || !strings.Contains(inbox, `id="cleanup/1"`) || !strings.Contains(inbox, "&#34;reason&#34;: &#34;delete needs approval&#34;") {
		t.Fatalf("inbox: %d %s", code, inbox)
	}
	form := url.Values{"csrf": {csrfOf(inbox)}, "run": {"cleanup"}, "call": {"cleanup/1"}, "action": {"approve"}}
	if code, _, body := do("POST", "/approvals/answer", form, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"); code != http.StatusForbidden {
		t.Errorf("forged cross-site answer: %d %s", code, body)
	}
	if code, _, body := do("POST", "/approvals/answer", form); code != http.StatusSeeOther {
		t.Fatalf("approve: %d %s", code, body)
	}
	var run string
	for range 400 {
		_, _, run = do("GET", "/run?id=cleanup", nil)
		if strings.Contains(run, `<dd id="status">completed</dd>`) {
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	for _, want := range []string{`<dd id="status">completed</dd>`, "asking to delete old.log\ndeleted\n", "&#34;deleted&#34;: true", `ws:tools/delete`} {
		if !strings.Contains(run, want) {
			t.Errorf("run page lacks %q:\n%s", want, run)
		}
	}
	w.fail(1, "", "stat", "/workspace/old.log")
	if _, _, inbox := do("GET", "/approvals", nil); !strings.Contains(inbox, `id="empty"`) || !strings.Contains(inbox, "<td>Ada <span") {
		t.Errorf("inbox after the answer:\n%s", inbox)
	}
}

// --console=false serves no console.
func TestServeNoConsole(t *testing.T) {
	w := newWS(t)
	w.put("/a.txt", "a")
	_, mcpURL := startServeCmd(t, w, "--console=false")
	res, err := http.Get(strings.TrimSuffix(mcpURL, "/mcp") + "/login")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("--console=false, /login: %d", res.StatusCode)
	}
}
