package console_test

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/internal/console"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/vfs"
)

const testToken = "s3cret-token-for-tests"

// env is a console over a workspace whose ws:ask module's ok() waits for
// a person's answer and returns it.
type env struct {
	t   *testing.T
	ws  *nook.Workspace
	srv *httptest.Server
}

func newEnv(t *testing.T, token string, with ...func(*console.Options)) *env {
	t.Helper()
	mods := map[string]runtime.Module{"ws:ask": {
		"ok": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			return c.Interrupt(map[string]any{"question": args[0]})
		},
	}}
	ws, err := nook.OpenMemory(context.Background(),
		nook.WithRuntime(runtime.Options{KeepJournal: true, Modules: mods}),
		nook.WithBackends(js.New(js.Options{}), shell.New(shell.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	opts := console.Options{FS: ws.FS(), Runtime: ws.Runtime(), Token: token}
	for _, f := range with {
		f(&opts)
	}
	c, err := console.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(c)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		ws.Close()
	})
	return &env{t: t, ws: ws, srv: srv}
}

// askProgram waits for an answer to question and returns it as its value.
func askProgram(question string) string {
	q, _ := json.Marshal(question)
	return `import { ok } from "ws:ask";
console.log("asking " + ` + string(q) + `);
const a = await ok(` + string(q) + `);
console.log("answered");
export default () => ({ answer: a });`
}

// startAsk starts a replay-policy JS run that waits, and waits for its
// call to be pending.
func (e *env) startAsk(id, question string) (*runtime.Handle, runtime.PendingCall) {
	e.t.Helper()
	ctx := context.Background()
	h, err := e.ws.Runtime().Exec(ctx, askProgram(question), runtime.ExecOptions{ID: id, Backend: "js", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		e.t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ps, err := e.ws.Runtime().Pending(ctx)
		if err != nil {
			e.t.Fatal(err)
		}
		for _, p := range ps {
			if p.RunID == h.ID {
				return h, p
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.t.Fatalf("run %s never waited", id)
	return nil, runtime.PendingCall{}
}

// client is a browser-like client: a cookie jar, no redirects followed.
type client struct {
	t  *testing.T
	e  *env
	hc *http.Client
}

func (e *env) client() *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: e.t, e: e, hc: &http.Client{Jar: jar, Timeout: 20 * time.Second,
		Transport:     &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

type resp struct {
	code   int
	header http.Header
	body   string
}

func (c *client) do(method, path string, form url.Values, hdr map[string]string) resp {
	c.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, c.e.srv.URL+path, body)
	if err != nil {
		c.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return resp{res.StatusCode, res.Header, string(b)}
}

func (c *client) get(path string) resp { c.t.Helper(); return c.do("GET", path, nil, nil) }

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrf returns the CSRF token of a page's forms.
func csrf(t *testing.T, body string) string {
	t.Helper()
	m := csrfField.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no csrf field in %s", body)
	}
	return html.UnescapeString(m[1])
}

// login logs in with token and returns the response of the POST.
func (c *client) login(token, name string) resp {
	c.t.Helper()
	page := c.get("/login")
	if page.code != 200 {
		c.t.Fatalf("GET /login: %d %s", page.code, page.body)
	}
	return c.do("POST", "/login", url.Values{"csrf": {csrf(c.t, page.body)}, "token": {token}, "name": {name}}, nil)
}

// mustLogin logs in and returns the session's CSRF token.
func (c *client) mustLogin(name string) string {
	c.t.Helper()
	r := c.login(testToken, name)
	if r.code != http.StatusSeeOther || r.header.Get("Location") != "/approvals" {
		c.t.Fatalf("login: %d %v %s", r.code, r.header, r.body)
	}
	page := c.get("/approvals")
	if page.code != 200 {
		c.t.Fatalf("GET /approvals after login: %d", page.code)
	}
	return csrf(c.t, page.body)
}

// waitResult waits for a run's end.
func waitResult(t *testing.T, h *runtime.Handle) *runtime.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := h.Result(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("run %s did not finish", h.ID)
	}
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// wantCSP fails unless r carries the console's security headers.
func wantCSP(t *testing.T, what string, h http.Header) {
	t.Helper()
	const csp = "default-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
	if got := h.Get("Content-Security-Policy"); got != csp {
		t.Errorf("%s: Content-Security-Policy %q", what, got)
	}
	if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("%s: X-Content-Type-Options %q", what, got)
	}
}

func vfsPage(n int) vfs.Page { return vfs.Page{Limit: n} }
