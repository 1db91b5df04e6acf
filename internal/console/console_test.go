package console_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	pngenc "image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook/internal/console"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// A person logs in with the server's token and gets a session cookie that
// scripts cannot read and other sites cannot send; a wrong token, a login
// form from elsewhere and a request without a session get nothing.
func TestLogin(t *testing.T) {
	e := newEnv(t, testToken)
	c := e.client()
	if r := c.get("/runs"); r.code != http.StatusSeeOther || r.header.Get("Location") != "/login" {
		t.Fatalf("GET /runs without a session: %d %v", r.code, r.header)
	}
	if r := c.do("POST", "/approvals/answer", url.Values{"run": {"x"}}, nil); r.code != http.StatusUnauthorized {
		t.Errorf("POST without a session: %d", r.code)
	}
	r := c.login("wrong-token", "mallory")
	if r.code != http.StatusUnauthorized || !strings.Contains(r.body, "That is not the token this server was started with.") {
		t.Errorf("wrong token: %d %s", r.code, r.body)
	}
	for _, ck := range r.header.Values("Set-Cookie") {
		if strings.HasPrefix(ck, "nook_session=") {
			t.Errorf("wrong token set a session cookie: %s", ck)
		}
	}
	if r := c.get("/runs"); r.code != http.StatusSeeOther {
		t.Errorf("after a wrong token, /runs: %d", r.code)
	}
	// The login form's own token must come back (a form posted from
	// another page has none).
	if r := c.do("POST", "/login", url.Values{"token": {testToken}}, nil); r.code != http.StatusForbidden {
		t.Errorf("login without the form's token: %d %s", r.code, r.body)
	}
	r = c.login(testToken, "Ada")
	if r.code != http.StatusSeeOther {
		t.Fatalf("login: %d %s", r.code, r.body)
	}
	var session string
	for _, ck := range r.header.Values("Set-Cookie") {
		if strings.HasPrefix(ck, "nook_session=") {
			session = ck
		}
	}
	for _, want := range []string{"HttpOnly", "SameSite=Strict", "Path=/"} {
		if !strings.Contains(session, want) {
			t.Errorf("session cookie %q lacks %s", session, want)
		}
	}
	if strings.Contains(session, "Secure") {
		t.Errorf("session cookie over plain HTTP is Secure: %q", session)
	}
	page := c.get("/runs")
	if page.code != 200 || !strings.Contains(page.body, `<span class="who">Ada</span>`) {
		t.Fatalf("GET /runs logged in: %d %s", page.code, page.body)
	}
	// Logging out ends the session on the server, not only in the browser.
	id := strings.TrimPrefix(strings.SplitN(session, ";", 2)[0], "nook_session=")
	if r := c.do("POST", "/logout", url.Values{"csrf": {csrf(t, page.body)}}, nil); r.code != http.StatusSeeOther {
		t.Fatalf("logout: %d %s", r.code, r.body)
	}
	replay := e.client()
	u, _ := url.Parse(e.srv.URL)
	replay.hc.Jar.SetCookies(u, []*http.Cookie{{Name: "nook_session", Value: id}})
	if r := replay.get("/runs"); r.code != http.StatusSeeOther {
		t.Errorf("the session of a logged-out cookie still works: %d", r.code)
	}
}

// Over TLS the session cookie is Secure.
func TestLoginTLSCookieSecure(t *testing.T) {
	e := newEnv(t, testToken)
	tlsSrv := httptest.NewTLSServer(e.srv.Config.Handler)
	defer tlsSrv.Close()
	e2 := &env{t: t, ws: e.ws, srv: tlsSrv}
	c := e2.client()
	r := c.login(testToken, "")
	if r.code != http.StatusSeeOther {
		t.Fatalf("login over TLS: %d", r.code)
	}
	found := false
	for _, ck := range r.header.Values("Set-Cookie") {
		if strings.HasPrefix(ck, "nook_session=") {
			found = true
			if !strings.Contains(ck, "Secure") || !strings.Contains(ck, "HttpOnly") || !strings.Contains(ck, "SameSite=Strict") {
				t.Errorf("session cookie over TLS: %q", ck)
			}
		}
	}
	if !found {
		t.Error("no session cookie over TLS")
	}
}

// A state-changing request forged by another site is refused, whatever
// cookies the browser attaches: by Sec-Fetch-Site, by Origin, and by the
// missing or wrong CSRF token; the call goes on waiting.
func TestForgedPostsRefused(t *testing.T) {
	e := newEnv(t, testToken)
	_, p := e.startAsk("forge", "may I?")
	c := e.client()
	tok := c.mustLogin("Ada")
	form := func(tok string) url.Values {
		return url.Values{"csrf": {tok}, "run": {p.RunID}, "call": {p.CallID}, "action": {"approve"}}
	}
	cases := []struct {
		name string
		form url.Values
		hdr  map[string]string
	}{
		{"cross-site Sec-Fetch-Site", form(tok), map[string]string{"Sec-Fetch-Site": "cross-site"}},
		{"same-site Sec-Fetch-Site", form(tok), map[string]string{"Sec-Fetch-Site": "same-site"}},
		{"foreign Origin", form(tok), map[string]string{"Origin": "https://evil.example"}},
		{"no CSRF token", form(""), nil},
		{"wrong CSRF token", form(tok + "x"), nil},
	}
	for _, tc := range cases {
		if r := c.do("POST", "/approvals/answer", tc.form, tc.hdr); r.code != http.StatusForbidden {
			t.Errorf("%s: %d %s", tc.name, r.code, r.body)
		}
	}
	// A cross-site login is refused too.
	page := c.get("/login")
	if r := c.do("POST", "/login", url.Values{"csrf": {csrf(t, page.body)}, "token": {testToken}},
		map[string]string{"Sec-Fetch-Site": "cross-site"}); r.code != http.StatusForbidden {
		t.Errorf("cross-site login: %d", r.code)
	}
	ps, err := e.ws.Runtime().Pending(context.Background())
	if err != nil || len(ps) != 1 {
		t.Fatalf("after forged posts: %v %v", ps, err)
	}
	// The same form from the console's own origin is taken.
	if r := c.do("POST", "/approvals/answer", form(tok), map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": e.srv.URL}); r.code != http.StatusSeeOther {
		t.Errorf("same-origin answer: %d %s", r.code, r.body)
	}
}

// A run that waits appears in the inbox with its payload; an answer that
// is not JSON is refused and changes nothing; a JSON answer resumes the
// run, which completes with the answer in its value; who answered and
// when is recorded; a second answer to the same call is refused.
func TestAnswerThroughInbox(t *testing.T) {
	e := newEnv(t, testToken)
	h, p := e.startAsk("deploy", "deploy to prod?")
	c := e.client()
	tok := c.mustLogin("Grace Hopper")
	inbox := c.get("/approvals")
	for _, want := range []string{`id="` + p.CallID + `"`, "{\n  &#34;question&#34;: &#34;deploy to prod?&#34;\n}", `href="/run?id=deploy"`} {
		if !strings.Contains(inbox.body, want) {
			t.Errorf("inbox lacks %q:\n%s", want, inbox.body)
		}
	}
	answer := func(action, typed string) resp {
		return c.do("POST", "/approvals/answer", url.Values{"csrf": {tok}, "run": {p.RunID}, "call": {p.CallID},
			"action": {action}, "answer": {typed}}, nil)
	}
	r := answer("answer", `{"go": yes}`)
	if r.code != http.StatusBadRequest || !strings.Contains(r.body, "The answer is not valid JSON: invalid character &#39;y&#39; looking for beginning of value") ||
		!strings.Contains(r.body, `{&#34;go&#34;: yes}</textarea>`) {
		t.Errorf("invalid JSON: %d %s", r.code, r.body)
	}
	if r := answer("answer", `{"a":1} {"b":2}`); r.code != http.StatusBadRequest || !strings.Contains(r.body, "more follows the first value") {
		t.Errorf("two JSON values: %d %s", r.code, r.body)
	}
	if ps, _ := e.ws.Runtime().Pending(context.Background()); len(ps) != 1 {
		t.Fatalf("a refused answer changed the wait: %v", ps)
	}
	r = answer("answer", `{"go": "yes, <b>after</b> 17:00"}`)
	if r.code != http.StatusSeeOther || !strings.HasPrefix(r.header.Get("Location"), "/approvals?done=") {
		t.Fatalf("answer: %d %v %s", r.code, r.header, r.body)
	}
	res := waitResult(t, h)
	if res.Status != runtime.StatusCompleted || string(res.Value) != `{"answer":{"go":"yes, \u003cb\u003eafter\u003c/b\u003e 17:00"}}` && string(res.Value) != `{"answer":{"go":"yes, <b>after</b> 17:00"}}` {
		t.Fatalf("run after the answer: %s %s %s", res.Status, res.Value, res.Error)
	}
	after := c.get(r.header.Get("Location"))
	if !strings.Contains(after.body, "Answered deploy/1 (answer); run deploy resumes.") || !strings.Contains(after.body, `id="empty"`) {
		t.Errorf("inbox after the answer:\n%s", after.body)
	}
	if !strings.Contains(after.body, "<td>Grace Hopper <span class=\"hint\">127.0.0.1:") || !strings.Contains(after.body, "&lt;b&gt;after&lt;/b&gt;") {
		t.Errorf("the audit record is not listed:\n%s", after.body)
	}
	var audit console.Answer
	l, err := e.ws.FS().ReadDir(context.Background(), console.DefaultAuditDir, vfsPage(10))
	if err != nil || len(l.Entries) != 1 {
		t.Fatalf("audit dir: %v %v", l, err)
	}
	data, _ := e.ws.FS().ReadFile(context.Background(), l.Entries[0].Path)
	if err := json.Unmarshal(data, &audit); err != nil || audit.By != "Grace Hopper" || audit.CallID != p.CallID || audit.Action != "answer" ||
		time.Since(audit.At) > time.Minute || !strings.HasPrefix(audit.From, "127.0.0.1:") {
		t.Errorf("audit record %s: %+v %v", data, audit, err)
	}
	if r := answer("approve", ""); r.code != http.StatusConflict || !strings.Contains(r.body, "call deploy/1 is not waiting for an answer") {
		t.Errorf("second answer: %d %s", r.code, r.body)
	}
	if l, _ := e.ws.FS().ReadDir(context.Background(), console.DefaultAuditDir, vfsPage(10)); len(l.Entries) != 1 {
		t.Errorf("a refused answer left an audit record: %d", len(l.Entries))
	}
	// The run page shows the finished run: value, output and journal.
	run := c.get("/run?id=deploy")
	for _, want := range []string{`<dd id="status">completed</dd>`, `asking deploy to prod?`, `<span class="op mono">ws:ask/ok</span>`,
		`<span class="callid hint">deploy/1</span>`, "&#34;answer&#34;: {"} {
		if !strings.Contains(run.body, want) {
			t.Errorf("run page lacks %q:\n%s", want, run.body)
		}
	}
}

// Deny sends {"approved":false,"reason":...}.
func TestDeny(t *testing.T) {
	e := newEnv(t, testToken)
	h, p := e.startAsk("d", "rm -rf /?")
	c := e.client()
	tok := c.mustLogin("Ada")
	r := c.do("POST", "/approvals/answer", url.Values{"csrf": {tok}, "run": {p.RunID}, "call": {p.CallID}, "action": {"deny"}, "reason": {"no way"}}, nil)
	if r.code != http.StatusSeeOther {
		t.Fatalf("deny: %d %s", r.code, r.body)
	}
	if res := waitResult(t, h); string(res.Value) != `{"answer":{"approved":false,"reason":"no way"}}` {
		t.Errorf("denied run's value: %s", res.Value)
	}
}

// Live output streams as server-sent events from a cursor: a reconnect
// with Last-Event-ID resumes after it; the stream ends with the exit.
func TestRunEvents(t *testing.T) {
	e := newEnv(t, testToken)
	h, p := e.startAsk("live", "go?")
	c := e.client()
	tok := c.mustLogin("Ada")
	page := c.get("/run?id=live")
	if !strings.Contains(page.body, `data-url="/run/events?id=live&amp;after=1"`) || !strings.Contains(page.body, `<span class="stdout">asking go?`) {
		t.Fatalf("running run page:\n%s", page.body)
	}
	// From the start: the first event.
	events := c.stream("/run/events?id=live", nil, 1)
	if len(events) != 1 || events[0].id != "1" || events[0].event != "output" || events[0].data != `{"stream":"stdout","text":"asking go?\n"}` {
		t.Errorf("events from 0: %+v", events)
	}
	// Resuming after event 1, the run answered meanwhile: the rest.
	done := make(chan []sse)
	go func() { done <- c.stream("/run/events?id=live", map[string]string{"Last-Event-ID": "1"}, 100) }()
	time.Sleep(100 * time.Millisecond)
	if r := c.do("POST", "/approvals/answer", url.Values{"csrf": {tok}, "run": {p.RunID}, "call": {p.CallID}, "action": {"approve"}}, nil); r.code != http.StatusSeeOther {
		t.Fatalf("approve: %d", r.code)
	}
	waitResult(t, h)
	var got []sse
	select {
	case got = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the event stream did not end with the run")
	}
	if len(got) != 2 || got[0].id != "2" || got[0].data != `{"stream":"stdout","text":"answered\n"}` ||
		got[1].event != "exit" || got[1].data != `{"exitCode":0,"status":"completed"}` {
		t.Errorf("events after 1: %+v", got)
	}
	wantCSP(t, "event stream", c.streamHeader("/run/events?id=live"))
	if r := c.get("/run/events?id=nope"); r.code != http.StatusNotFound {
		t.Errorf("events of an unknown run: %d", r.code)
	}
}

type sse struct{ id, event, data string }

// stream reads up to n events of a server-sent event stream.
func (c *client) stream(path string, hdr map[string]string, n int) []sse {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.e.srv.URL+path, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := c.hc.Do(req)
	if err != nil {
		c.t.Error(err)
		return nil
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		c.t.Errorf("event stream Content-Type %q", ct)
	}
	var out []sse
	var cur sse
	sc := bufio.NewScanner(res.Body)
	for len(out) < n && sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.event != "" {
				out = append(out, cur)
			}
			cur = sse{}
		case strings.HasPrefix(line, "id: "):
			cur.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			cur.event = line[7:]
		case strings.HasPrefix(line, "data: "):
			cur.data = line[6:]
		}
	}
	return out
}

func (c *client) streamHeader(path string) http.Header {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.e.srv.URL+path, nil)
	res, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	res.Body.Close()
	return res.Header
}

// Without a token the console needs no login, and answers only requests
// naming a loopback host (a DNS-rebinding page names its own).
func TestNoTokenLoopbackOnly(t *testing.T) {
	e := newEnv(t, "")
	c := e.client()
	if r := c.get("/runs"); r.code != 200 {
		t.Errorf("no token, /runs: %d", r.code)
	}
	req, _ := http.NewRequest("GET", e.srv.URL+"/runs", nil)
	req.Host = "evil.example:8765"
	res, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("no token, Host evil.example: %d", res.StatusCode)
	}
	wantCSP(t, "refused host", res.Header)
}

// The runs list filters by status and backend, keeps the filters across
// its pages, and refuses a filter it does not know.
func TestRunsListFilters(t *testing.T) {
	e := newEnv(t, "")
	ctx := context.Background()
	run := func(id, backend, src string) {
		t.Helper()
		h, err := e.ws.Runtime().Exec(ctx, src, runtime.ExecOptions{ID: id, Backend: backend})
		if err != nil {
			t.Fatal(err)
		}
		waitResult(t, h)
	}
	for i := range console.RunsPerPage + 2 {
		run(fmt.Sprintf("f%02d", i), "shell", "exit 3")
	}
	run("ok", "shell", "true")
	run("j", "js", "export default () => 1")
	c := e.client()
	ids := func(body string) string {
		var out []string
		for _, m := range regexp.MustCompile(`<a href="/run\?id=([^"]+)">`).FindAllStringSubmatch(body, -1) {
			out = append(out, m[1])
		}
		return strings.Join(out, " ")
	}
	p := c.get("/runs?status=failed&backend=shell")
	if p.code != 200 {
		t.Fatalf("filtered list: %d %s", p.code, p.body)
	}
	var want []string
	for i := console.RunsPerPage + 1; i >= 2; i-- {
		want = append(want, fmt.Sprintf("f%02d", i))
	}
	if got := ids(p.body); got != strings.Join(want, " ") {
		t.Errorf("failed shell runs, page 0: %s", got)
	}
	for _, s := range []string{`<a href="/runs?backend=shell&amp;page=1&amp;status=failed" rel="next">`,
		`<option selected>failed</option>`, `<option selected>shell</option>`} {
		if !strings.Contains(p.body, s) {
			t.Errorf("filtered list lacks %s", s)
		}
	}
	p = c.get("/runs?backend=shell&page=1&status=failed")
	if got := ids(p.body); got != "f01 f00" {
		t.Errorf("failed shell runs, page 1: %s", got)
	}
	if !strings.Contains(p.body, `<a href="/runs?backend=shell&amp;status=failed" rel="prev">`) || strings.Contains(p.body, `rel="next"`) {
		t.Errorf("page 1's pager:\n%s", p.body)
	}
	if got := ids(c.get("/runs?backend=js").body); got != "j" {
		t.Errorf("js runs: %s", got)
	}
	if got := ids(c.get("/runs?status=completed").body); got != "j ok" {
		t.Errorf("completed runs: %s", got)
	}
	if p := c.get("/runs?status=running"); ids(p.body) != "" || !strings.Contains(p.body, "No runs match.") {
		t.Errorf("running runs: %s", p.body)
	}
	for q, msg := range map[string]string{"status=bogus": "There is no run status &#34;bogus&#34;.",
		"backend=perl": "There is no backend &#34;perl&#34;."} {
		if p := c.get("/runs?" + q); p.code != http.StatusBadRequest || !strings.Contains(p.body, msg) {
			t.Errorf("%s: %d %s", q, p.code, p.body)
		}
	}
}

// Ten wrong tokens from one address in a minute lock it out of the login,
// the right token included, until the minute ends; a login forgets the
// address's failures.
func TestLoginRateLimit(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1767225600, 0)
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	e := newEnv(t, testToken, func(o *console.Options) {
		o.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	})
	c := e.client()
	for i := range console.MaxLoginFailures {
		if r := c.login("wrong", "Eve"); r.code != http.StatusUnauthorized {
			t.Fatalf("wrong token %d: %d", i+1, r.code)
		}
		advance(time.Second)
	}
	r := c.login(testToken, "Ada")
	msg := "Too many wrong tokens from this address: try again in 50 s (limit MaxLoginFailures, 10 a minute)."
	if r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") != "50" || !strings.Contains(r.body, msg) {
		t.Fatalf("the right token while locked: %d %v\n%s", r.code, r.header, r.body)
	}
	if r := c.get("/runs"); r.code != http.StatusSeeOther {
		t.Fatalf("a locked-out login made a session: /runs %d", r.code)
	}
	advance(49 * time.Second)
	if r := c.login(testToken, "Ada"); r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") != "1" {
		t.Fatalf("a second before the window ends: %d %v", r.code, r.header)
	}
	advance(time.Second)
	c.mustLogin("Ada")
	// A login forgets the address's failures: nine, a login, nine more
	// and a login, all in one minute.
	for range 2 {
		c := e.client()
		for i := range console.MaxLoginFailures - 1 {
			if r := c.login("wrong", "Eve"); r.code != http.StatusUnauthorized {
				t.Fatalf("wrong token %d after a login: %d", i+1, r.code)
			}
		}
		c.mustLogin("Ada")
	}
}

// The run page's buttons: kill a running run, verify a finished
// replay-policy run, dispose of a finished run; each refusal names why.
func TestRunButtons(t *testing.T) {
	e := newEnv(t, testToken)
	ctx := context.Background()
	c := e.client()
	tok := c.mustLogin("Ada")
	act := func(id, action string) resp {
		t.Helper()
		return c.do("POST", "/run/action", url.Values{"csrf": {tok}, "id": {id}, "action": {action}}, nil)
	}
	h, _ := e.startAsk("k", "may I?")
	page := c.get("/run?id=k")
	if !strings.Contains(page.body, `<button name="action" value="kill" class="deny" data-confirm="Kill run k?">Kill</button>`) ||
		strings.Contains(page.body, `value="dispose"`) || strings.Contains(page.body, `value="verify"`) {
		t.Fatalf("a running run's buttons:\n%s", page.body)
	}
	if r := act("k", "dispose"); r.code != http.StatusConflict || !strings.Contains(r.body, "The dispose failed: run k is still running") {
		t.Errorf("dispose of a running run: %d %s", r.code, r.body)
	}
	r := act("k", "kill")
	if r.code != http.StatusSeeOther || r.header.Get("Location") != "/run?done=kill&id=k" {
		t.Fatalf("kill: %d %v %s", r.code, r.header, r.body)
	}
	if res := waitResult(t, h); res.Status != runtime.StatusCancelled || res.ExitCode != 130 {
		t.Fatalf("killed run: %s %d", res.Status, res.ExitCode)
	}
	page = c.get("/run?done=kill&id=k")
	for _, s := range []string{`<p class="ok" id="message">Kill requested: the run ends as cancelled (exit code 130).</p>`,
		`value="verify">Verify</button>`, `value="dispose" class="deny"`} {
		if !strings.Contains(page.body, s) {
			t.Errorf("the killed run's page lacks %s", s)
		}
	}

	v, err := e.ws.Runtime().Exec(ctx, `export default () => ({ n: Math.random() < 2 ? 42 : 0 })`,
		runtime.ExecOptions{ID: "v", Backend: "js", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	waitResult(t, v)
	if r := act("v", "verify"); r.code != 200 || !strings.Contains(r.body,
		`<p class="ok" id="message">Verified: replayed against its journal, the run printed the same output and ended the same way.</p>`) {
		t.Errorf("verify: %d %s", r.code, r.body)
	}
	s, err := e.ws.Runtime().Exec(ctx, "echo hi", runtime.ExecOptions{ID: "s", Backend: "shell"})
	if err != nil {
		t.Fatal(err)
	}
	waitResult(t, s)
	if page := c.get("/run?id=s"); strings.Contains(page.body, `value="verify"`) {
		t.Error("a fail-policy run offers Verify")
	}
	if r := act("s", "verify"); r.code != http.StatusConflict ||
		!strings.Contains(r.body, `<p class="error" id="message">The verify failed: run s was not run with the replay policy</p>`) {
		t.Errorf("verify of a fail-policy run: %d %s", r.code, r.body)
	}
	r = act("s", "dispose")
	if r.code != http.StatusSeeOther || r.header.Get("Location") != "/runs?disposed=s" {
		t.Fatalf("dispose: %d %v %s", r.code, r.header, r.body)
	}
	if page := c.get("/runs?disposed=s"); !strings.Contains(page.body, `Run <span class="mono">s</span> was disposed of.`) ||
		strings.Contains(page.body, `href="/run?id=s"`) {
		t.Errorf("the runs list after the dispose:\n%s", page.body)
	}
	if r := c.get("/run?id=s"); r.code != http.StatusNotFound {
		t.Errorf("the disposed run's page: %d", r.code)
	}
	if r := act("s", "kill"); r.code != http.StatusNotFound {
		t.Errorf("kill of a disposed run: %d %s", r.code, r.body)
	}
	if r := act("v", "launch"); r.code != http.StatusBadRequest || !strings.Contains(r.body, "Unknown action &#34;launch&#34;: want kill, verify or dispose.") {
		t.Errorf("unknown action: %d %s", r.code, r.body)
	}
	if r := c.do("POST", "/run/action", url.Values{"id": {"v"}, "action": {"dispose"}}, nil); r.code != http.StatusForbidden {
		t.Errorf("a POST without the CSRF token: %d", r.code)
	}
	if _, err := e.ws.Runtime().Info(ctx, "v"); err != nil {
		t.Errorf("the refused dispose removed the run: %v", err)
	}
}

// The Changes page lists the feed newest first, links the files that are
// there, shows hostile names as text, pages back, and its first page
// follows new changes by server-sent events, resuming after a reconnect.
func TestChangesPage(t *testing.T) {
	e := newEnv(t, testToken)
	ctx := context.Background()
	f := e.ws.FS()
	const hostile = "/workspace/<img src=x onerror=alert(1)>.txt"
	for _, err := range []error{
		f.MkdirAll(ctx, "/workspace", 0o755),
		f.WriteFile(ctx, "/workspace/a.txt", []byte("a"), nil),
		f.WriteFile(ctx, hostile, []byte("x"), nil),
		f.Rename(ctx, "/workspace/a.txt", "/workspace/b.txt"),
		f.Remove(ctx, hostile, nil),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	c := e.client()
	c.mustLogin("Ada")
	p := c.get("/changes")
	if p.code != 200 {
		t.Fatalf("GET /changes: %d %s", p.code, p.body)
	}
	rows := regexp.MustCompile(`(?s)<tr class="op-(\w+)">.*?<td class="mono">(.*?)</td>`).FindAllStringSubmatch(p.body, 4)
	var got []string
	for _, m := range rows {
		got = append(got, m[1]+" "+m[2])
	}
	want := []string{
		`remove <a href="/history?path=%2fworkspace%2f%3cimg%20src%3dx%20onerror%3dalert%281%29%3e.txt">/workspace/&lt;img src=x onerror=alert(1)&gt;.txt</a>`,
		`rename /workspace/a.txt → <a href="/file?path=%2fworkspace%2fb.txt">/workspace/b.txt</a>`,
		`create <a href="/file?path=%2fworkspace%2f%3cimg%20src%3dx%20onerror%3dalert%281%29%3e.txt">/workspace/&lt;img src=x onerror=alert(1)&gt;.txt</a>`,
		`create <a href="/file?path=%2fworkspace%2fa.txt">/workspace/a.txt</a>`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the newest changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Contains(p.body, "<img src=x") {
		t.Error("a file name rendered as markup")
	}
	newest, err := f.RecentChanges(ctx, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	live := fmt.Sprintf(`data-url="/changes/events?after=%d"`, newest[0].Seq)
	if !strings.Contains(p.body, live) {
		t.Fatalf("the first page does not follow from the newest change (%s):\n%s", live, p.body)
	}

	// Live: a change after the page appears on the stream.
	done := make(chan []sse)
	go func() { done <- c.stream(fmt.Sprintf("/changes/events?after=%d", newest[0].Seq), nil, 1) }()
	time.Sleep(100 * time.Millisecond)
	if err := f.WriteFile(ctx, "/workspace/c.txt", []byte("c"), nil); err != nil {
		t.Fatal(err)
	}
	var evs []sse
	select {
	case evs = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("no live change")
	}
	c1 := newest[0].Seq + 1
	if len(evs) != 1 || evs[0].id != strconv.FormatInt(c1, 10) || evs[0].event != "change" ||
		!strings.HasPrefix(evs[0].data, fmt.Sprintf(`{"seq":%d,"op":"create","path":"/workspace/c.txt","kind":"file","time":"`, c1)) {
		t.Fatalf("live change: %+v", evs)
	}
	// A reconnect resumes after its last event id: the rename and the
	// remove, then what follows.
	evs = c.stream("/changes/events", map[string]string{"Last-Event-ID": strconv.FormatInt(newest[0].Seq-2, 10)}, 3)
	if len(evs) != 3 || !strings.Contains(evs[0].data, `"op":"rename","path":"/workspace/b.txt","oldPath":"/workspace/a.txt"`) ||
		!strings.Contains(evs[1].data, `"op":"remove"`) || !strings.Contains(evs[2].data, `"path":"/workspace/c.txt"`) {
		t.Fatalf("resumed stream: %+v", evs)
	}
	wantCSP(t, "change stream", c.streamHeader("/changes/events"))

	// Paging back: ChangesPerPage a page, the rest on the next.
	err = f.Batch(ctx, func(b *vfs.Batch) error {
		for i := range console.ChangesPerPage {
			if err := b.WriteFile(fmt.Sprintf("/workspace/many/%03d", i), nil, &vfs.WriteOptions{MkdirAll: true}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	p = c.get("/changes")
	if n := strings.Count(p.body, "<tr class=\"op-"); n != console.ChangesPerPage {
		t.Errorf("first page: %d rows", n)
	}
	next := regexp.MustCompile(`<a href="(/changes\?before=\d+)" rel="next">`).FindStringSubmatch(p.body)
	if next == nil {
		t.Fatalf("no older page:\n%s", p.body)
	}
	p = c.get(next[1])
	if !strings.Contains(p.body, `rel="first"`) || strings.Contains(p.body, "data-url=") || !strings.Contains(p.body, "/workspace/c.txt") {
		t.Errorf("older page:\n%s", p.body)
	}
}

// A path's history lists every change of its name, newest first, a
// rename away and back included and other paths' changes left out, links
// the other side of each rename, and pages back ChangesPerPage at a time.
func TestHistoryPage(t *testing.T) {
	e := newEnv(t, testToken)
	ctx := context.Background()
	f := e.ws.FS()
	for _, err := range []error{
		f.MkdirAll(ctx, "/workspace", 0o755),
		f.WriteFile(ctx, "/workspace/a.txt", []byte("1"), nil),
		f.WriteFile(ctx, "/workspace/other.txt", []byte("o"), nil),
		f.WriteFile(ctx, "/workspace/a.txt", []byte("2"), nil),
		f.Rename(ctx, "/workspace/a.txt", "/workspace/b.txt"),
		f.WriteFile(ctx, "/workspace/b.txt", []byte("3"), nil),
		f.Rename(ctx, "/workspace/b.txt", "/workspace/a.txt"),
		f.Remove(ctx, "/workspace/a.txt", nil),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	c := e.client()
	c.mustLogin("Ada")
	p := c.get("/history?path=/workspace/./a.txt")
	if p.code != 200 {
		t.Fatalf("GET /history: %d %s", p.code, p.body)
	}
	rows := regexp.MustCompile(`(?s)<tr class="op-(\w+)">.*?<td class="mono">(.*?)</td>`).FindAllStringSubmatch(p.body, -1)
	var got []string
	for _, m := range rows {
		got = append(got, m[1]+" "+m[2])
	}
	want := []string{
		"remove /workspace/a.txt",
		`rename <a href="/history?path=%2fworkspace%2fb.txt">/workspace/b.txt</a> → /workspace/a.txt`,
		`rename /workspace/a.txt → <a href="/history?path=%2fworkspace%2fb.txt">/workspace/b.txt</a>`,
		"write /workspace/a.txt",
		"create /workspace/a.txt",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the history of /workspace/a.txt:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(p.body, "<h1>History of <span class=\"mono\">/workspace/a.txt</span></h1>") || strings.Contains(p.body, `rel="next"`) {
		t.Errorf("history page:\n%s", p.body)
	}
	if r := c.get("/history?path=/workspace/never"); r.code != 200 || !strings.Contains(r.body, "No changes of this path are kept in the feed.") {
		t.Errorf("history of a path never written: %d\n%s", r.code, r.body)
	}
	if r := c.get("/history?path=relative/x"); r.code != 400 {
		t.Errorf("history of a relative path: %d, want 400\n%s", r.code, r.body)
	}
	// The file page links its history.
	if err := f.WriteFile(ctx, "/workspace/c.txt", []byte("c"), nil); err != nil {
		t.Fatal(err)
	}
	if r := c.get("/file?path=/workspace/c.txt"); !strings.Contains(r.body, `<a href="/history?path=%2fworkspace%2fc.txt">history</a>`) {
		t.Errorf("the file page does not link its history:\n%s", r.body)
	}

	// Paging: ChangesPerPage writes of one path among writes of others.
	err := f.Batch(ctx, func(b *vfs.Batch) error {
		for i := range console.ChangesPerPage + 5 {
			for _, name := range []string{"/workspace/c.txt", "/workspace/noise.txt"} {
				if err := b.WriteFile(name, []byte(strconv.Itoa(i)), nil); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	p = c.get("/history?path=/workspace/c.txt")
	if n := strings.Count(p.body, `<tr class="op-`); n != console.ChangesPerPage || strings.Contains(p.body, "noise") {
		t.Fatalf("first page of c.txt's history: %d rows (want %d)", n, console.ChangesPerPage)
	}
	next := regexp.MustCompile(`<a href="(/history\?path=[^"]*&amp;before=\d+)" rel="next">`).FindStringSubmatch(p.body)
	if next == nil {
		t.Fatalf("no older page:\n%s", p.body)
	}
	p = c.get(strings.ReplaceAll(next[1], "&amp;", "&"))
	// The rest: 5 writes and the first batch's create.
	if n := strings.Count(p.body, `<tr class="op-`); n != 6 || !strings.Contains(p.body, `rel="first"`) || strings.Contains(p.body, `rel="next"`) {
		t.Errorf("older page of c.txt's history: %d rows, want 6:\n%s", n, p.body)
	}
}

// The file view shows a raster image as an image, its bytes served with
// the sniffed type; SVG (which can hold script) is text, and other binary
// files are refused, their bytes not served.
func TestFileImages(t *testing.T) {
	e := newEnv(t, testToken)
	ctx := context.Background()
	f := e.ws.FS()
	var png bytes.Buffer
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.RGBA{R: 255, A: 255})
	if err := pngenc.Encode(&png, img); err != nil {
		t.Fatal(err)
	}
	const svg = `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`
	for name, data := range map[string][]byte{
		"/workspace/dot.txt": png.Bytes(), // the name says text: the content decides
		"/workspace/x.svg":   []byte(svg),
		"/workspace/b.bin":   {0, 1, 2, 3, 0xff},
	} {
		if err := f.WriteFile(ctx, name, data, &vfs.WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
	}
	c := e.client()
	c.mustLogin("Ada")
	p := c.get("/file?path=/workspace/dot.txt")
	if want := `<img class="view" id="image" src="/file/raw?path=%2fworkspace%2fdot.txt" alt="/workspace/dot.txt">`; p.code != 200 || !strings.Contains(p.body, want) {
		t.Fatalf("image page %d lacks %s:\n%s", p.code, want, p.body)
	}
	raw := c.get("/file/raw?path=/workspace/dot.txt")
	if raw.code != 200 || raw.header.Get("Content-Type") != "image/png" || raw.body != png.String() || raw.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("raw image: %d %q (%d bytes, want %d)", raw.code, raw.header.Get("Content-Type"), len(raw.body), png.Len())
	}
	wantCSP(t, "raw image", raw.header)
	p = c.get("/file?path=/workspace/x.svg")
	if !strings.Contains(p.body, "<pre>&lt;svg xmlns=&#34;http://www.w3.org/2000/svg&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;/svg&gt;</pre>") || strings.Contains(p.body, "<img") {
		t.Errorf("an SVG file is not shown as text:\n%s", p.body)
	}
	for _, name := range []string{"/workspace/x.svg", "/workspace/b.bin"} {
		if r := c.get("/file/raw?path=" + name); r.code != 415 || strings.Contains(r.body, "alert(1)") {
			t.Errorf("raw %s: %d %q, want 415", name, r.code, r.body)
		}
	}
	if p := c.get("/file?path=/workspace/b.bin"); !strings.Contains(p.body, "This file is binary") {
		t.Errorf("binary file page:\n%s", p.body)
	}
	if r := c.get("/file/raw?path=/workspace"); r.code != 400 {
		t.Errorf("raw of a directory: %d", r.code)
	}
	// Without a session, nothing is served.
	anon := e.client()
	if r := anon.get("/file/raw?path=/workspace/dot.txt"); r.code == 200 {
		t.Errorf("raw image without a session: %d", r.code)
	}
}

// The Usage page shows the workspace's totals against its limits.
func TestUsagePage(t *testing.T) {
	e := newEnv(t, testToken)
	ctx := context.Background()
	if err := e.ws.FS().WriteFile(ctx, "/workspace/k.bin", make([]byte, 3000), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
	u, err := e.ws.FS().Usage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := e.client()
	c.mustLogin("Ada")
	p := c.get("/usage")
	for _, s := range []string{
		fmt.Sprintf(`<td id="entries">%d</td><td>1000000 (MaxEntries)</td>`, u.Entries),
		`<td>10.0 GiB (MaxTotalBytes)</td>`, `(MaxFileSize)`, `100000 kept (MaxChanges)`,
	} {
		if !strings.Contains(p.body, s) {
			t.Errorf("usage page lacks %s:\n%s", s, p.body)
		}
	}
	if u.Bytes < 3000 || !strings.Contains(p.body, `<td id="bytes">`) {
		t.Errorf("usage %+v", u)
	}
}

// An open inbox's event stream says which calls wait at once and again
// each time they change: a new wait, then its answer.
func TestInboxEvents(t *testing.T) {
	e := newEnv(t, testToken)
	c := e.client()
	tok := c.mustLogin("Ada")
	if p := c.get("/approvals"); !strings.Contains(p.body, `<div id="inbox" data-url="/approvals/events" data-calls=""></div>`) {
		t.Fatalf("inbox without waits:\n%s", p.body)
	}
	done := make(chan []sse)
	go func() { done <- c.stream("/approvals/events", nil, 3) }()
	time.Sleep(200 * time.Millisecond)
	h, p := e.startAsk("w1", "ok?")
	if page := c.get("/approvals"); !strings.Contains(page.body, `data-calls="`+p.CallID+`"`) {
		t.Errorf("inbox with a wait lacks its call id:\n%s", page.body)
	}
	time.Sleep(2 * console.InboxPoll)
	if r := c.do("POST", "/approvals/answer", url.Values{"csrf": {tok}, "run": {p.RunID}, "call": {p.CallID}, "action": {"approve"}}, nil); r.code != http.StatusSeeOther {
		t.Fatalf("approve: %d", r.code)
	}
	waitResult(t, h)
	var evs []sse
	select {
	case evs = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the inbox stream did not report the wait and its answer")
	}
	want := []string{`{"calls":[],"total":0}`, `{"calls":["` + p.CallID + `"],"total":1}`, `{"calls":[],"total":0}`}
	if len(evs) != 3 {
		t.Fatalf("inbox events: %+v", evs)
	}
	for i, ev := range evs {
		if ev.event != "waits" || ev.data != want[i] {
			t.Errorf("event %d: %+v, want %s", i, ev, want[i])
		}
	}
}

// The Checkpoints page lists them and compares two, or one with the live
// tree, with each changed text file's patch, its lines marked and escaped.
func TestCheckpointsPage(t *testing.T) {
	e := newEnv(t, testToken)
	ctx := context.Background()
	f := e.ws.FS()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	mk := &vfs.WriteOptions{MkdirAll: true}
	must(f.WriteFile(ctx, "/workspace/a.txt", []byte("one\ntwo\n"), mk))
	must(f.WriteFile(ctx, "/workspace/c.txt", []byte("gone\n"), mk))
	_, err := f.Checkpoint(ctx, "one")
	must(err)
	must(f.WriteFile(ctx, "/workspace/a.txt", []byte("one\n<script>alert(2)</script>\n"), nil))
	must(f.WriteFile(ctx, "/workspace/b.txt", []byte("new\n"), nil))
	must(f.Remove(ctx, "/workspace/c.txt", nil))
	_, err = f.Checkpoint(ctx, "two")
	must(err)
	c := e.client()
	c.mustLogin("Ada")
	p := c.get("/checkpoints")
	if p.code != 200 || !strings.Contains(p.body, `<td class="mono">one</td>`) || !strings.Contains(p.body, `<td class="mono">two</td>`) {
		t.Fatalf("checkpoints page: %d\n%s", p.code, p.body)
	}
	p = c.get("/checkpoints?a=one&b=two")
	for _, s := range []string{
		`<li class="modified"><span class="op">modified</span> <span class="mono">/workspace/a.txt</span> <span class="hint">(content`,
		`<span class="del">-two</span>`, `<span class="add">&#43;&lt;script&gt;alert(2)&lt;/script&gt;</span>`, `<span> one</span>`,
		`<li class="added"><span class="op">added</span> <span class="mono">/workspace/b.txt</span>`,
		`<li class="deleted"><span class="op">deleted</span> <span class="mono">/workspace/c.txt</span>`,
		`<option selected>one</option>`, `<option selected>two</option>`,
	} {
		if !strings.Contains(p.body, s) {
			t.Errorf("comparison lacks %s:\n%s", s, p.body)
		}
	}
	if strings.Contains(p.body, "<script>alert") {
		t.Error("a file's text rendered as markup")
	}
	if p := c.get("/checkpoints?a=two&b="); !strings.Contains(p.body, `<p id="nodiff">No differences.</p>`) {
		t.Errorf("two against the live tree:\n%s", p.body)
	}
	if p := c.get("/checkpoints?a=one&b=&path=/workspace/b.txt"); !strings.Contains(p.body, `/workspace/b.txt`) || strings.Contains(p.body, "/workspace/a.txt</span>") {
		t.Errorf("one against the live tree under b.txt:\n%s", p.body)
	}
	if p := c.get("/checkpoints?a=nope&b=two"); p.code != http.StatusNotFound {
		t.Errorf("an unknown checkpoint: %d %s", p.code, p.body)
	}
	if p := c.get("/checkpoints?a=&b="); p.code != http.StatusBadRequest {
		t.Errorf("the live tree against itself: %d", p.code)
	}
}

// Mounted under a prefix (a fleet node's /w/WORKSPACE), the console keeps
// every link, form, script, event stream, redirect and cookie under it,
// and answers nothing outside it.
func TestPrefix(t *testing.T) {
	const prefix = "/w/alpha"
	e := newEnv(t, testToken, func(o *console.Options) { o.Prefix = prefix })
	ctx := context.Background()
	if err := e.ws.FS().WriteFile(ctx, "/workspace/a.txt", []byte("a\n"), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.ws.FS().Checkpoint(ctx, "one"); err != nil {
		t.Fatal(err)
	}
	e.startAsk("pre", "ok?")
	c := e.client()
	if r := c.get(prefix + "/"); r.code != http.StatusSeeOther || r.header.Get("Location") != prefix+"/login" {
		t.Fatalf("GET %s/ without a session: %d %q", prefix, r.code, r.header.Get("Location"))
	}
	page := c.get(prefix + "/login")
	if page.code != 200 || !strings.Contains(page.body, `action="`+prefix+`/login"`) {
		t.Fatalf("login page: %d\n%s", page.code, page.body)
	}
	r := c.do("POST", prefix+"/login", url.Values{"csrf": {csrf(t, page.body)}, "token": {testToken}, "name": {"Ada"}}, nil)
	if r.code != http.StatusSeeOther || r.header.Get("Location") != prefix+"/approvals" {
		t.Fatalf("login: %d %q", r.code, r.header.Get("Location"))
	}
	if ck := r.header.Get("Set-Cookie"); !strings.Contains(ck, "Path="+prefix+"/;") {
		t.Errorf("session cookie %q: want Path=%s/", ck, prefix)
	}
	attr := regexp.MustCompile(`(?:href|action|src|data-url)="(/[^"]*)"`)
	for _, p := range []string{"/approvals", "/runs", "/run?id=pre", "/files?path=/workspace", "/file?path=/workspace/a.txt",
		"/changes", "/history?path=/workspace/a.txt", "/usage", "/checkpoints?a=one"} {
		r := c.get(prefix + p)
		if r.code != 200 {
			t.Errorf("%s%s: %d %s", prefix, p, r.code, r.body)
			continue
		}
		links := attr.FindAllStringSubmatch(r.body, -1)
		if len(links) < 8 { // the layout's stylesheet, script and navigation at least
			t.Errorf("%s%s: only %d links", prefix, p, len(links))
		}
		for _, m := range links {
			if !strings.HasPrefix(m[1], prefix+"/") {
				t.Errorf("%s%s: a link outside the prefix: %s", prefix, p, m[0])
			}
		}
	}
	if r := c.get(prefix + "/file?path=/workspace"); r.code != http.StatusSeeOther || r.header.Get("Location") != prefix+"/files?path=%2Fworkspace" {
		t.Errorf("a directory's file view redirects to %d %q", r.code, r.header.Get("Location"))
	}
	if r := c.get(prefix + "/static/console.js"); r.code != 200 {
		t.Errorf("static script under the prefix: %d", r.code)
	}
	for _, p := range []string{"/runs", "/static/console.js", "/w/beta/runs"} {
		if r := c.get(p); r.code != 404 {
			t.Errorf("%s outside the prefix: %d, want 404", p, r.code)
		}
		wantCSP(t, p, c.get(p).header)
	}
}
