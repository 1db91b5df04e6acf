package console_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

const (
	hostileName = `<img src=x onerror=alert(1)>`
	escapedName = `&lt;img src=x onerror=alert(1)&gt;`
	hostileOut  = `<script>alert("out")</script>`
	escapedOut  = `&lt;script&gt;alert(&#34;out&#34;)&lt;/script&gt;`
	// escapedOutJSON is hostileOut inside a JSON string, escaped.
	escapedOutJSON = `&lt;script&gt;alert(\&#34;out\&#34;)&lt;/script&gt;`
	hostileFile    = `<script>alert("file")</script>`
	escapedFile    = `&lt;script&gt;alert(&#34;file&#34;)&lt;/script&gt;`
	hostileQuery   = `<img src=x onerror=alert(1)>`
)

// hostileEnv makes a workspace where a model wrote markup everywhere: a
// shell run creates a file named like an <img> tag holding a <script>
// and prints a <script>; a JS run waits with an <img> tag in its payload
// and journal.
func hostileEnv(t *testing.T) *env {
	e := newEnv(t, testToken)
	ctx := context.Background()
	script := `printf '%s\n' '` + hostileFile + `' > '` + hostileName + `'
echo '` + hostileOut + `'
echo '` + hostileOut + `' >&2`
	h, err := e.ws.Runtime().Exec(ctx, script, runtime.ExecOptions{ID: "xss-shell", Backend: "shell"})
	if err != nil {
		t.Fatal(err)
	}
	if res := waitResult(t, h); res.Status != runtime.StatusCompleted {
		t.Fatalf("shell run: %s %s %s", res.Status, res.Stderr, res.Error)
	}
	e.startAsk("xss-js", hostileQuery+" "+hostileOut)
	return e
}

// Everything a model wrote renders inert: escaped in every page that
// shows it, never as markup.
func TestHostileDataEscaped(t *testing.T) {
	e := hostileEnv(t)
	c := e.client()
	c.mustLogin(hostileName) // a person's name is data too
	pages := []struct {
		path string
		want []string // escaped forms that must be there
	}{
		{"/runs", []string{`href="/run?id=xss-shell"`, `href="/run?id=xss-js"`}},
		{"/run?id=xss-shell", []string{`<span class="stdout">` + escapedOut, `<span class="stderr">` + escapedOut,
			`href="/file?path=%2fworkspace%2f%3cimg%20src%3dx%20onerror%3dalert%281%29%3e">/workspace/` + escapedName + `</a>`}},
		{"/run?id=xss-js", []string{"asking " + escapedName + " " + escapedOut, `&#34;question&#34;: &#34;` + escapedName + ` ` + escapedOutJSON + `&#34;`}},
		{"/approvals", []string{`&#34;question&#34;: &#34;` + escapedName + ` ` + escapedOutJSON + `&#34;`}},
		{"/files?path=/workspace", []string{`>` + escapedName + `</a>`}},
		{"/file?path=" + url.QueryEscape("/workspace/"+hostileName), []string{`<pre>` + escapedFile + `</pre>`, `>` + escapedName + `</a>`}},
		{"/changes", []string{`>/workspace/` + escapedName + `</a>`}},
		{"/history?path=" + url.QueryEscape("/workspace/"+hostileName), []string{`<span class="mono">/workspace/` + escapedName + `</span>`,
			`<td class="mono">/workspace/` + escapedName + `</td>`}},
		{"/usage", nil},
	}
	for _, p := range pages {
		r := c.get(p.path)
		if r.code != 200 {
			t.Errorf("%s: %d %s", p.path, r.code, r.body)
			continue
		}
		for _, bad := range []string{hostileName, "<script>alert", "onerror=alert(1)>"} {
			if strings.Contains(r.body, bad) {
				t.Errorf("%s: the raw %q is in the page:\n%s", p.path, bad, r.body)
			}
		}
		for _, want := range append(p.want, `<span class="who">`+escapedName+`</span>`) {
			if !strings.Contains(r.body, want) {
				t.Errorf("%s: lacks %q:\n%s", p.path, want, r.body)
			}
		}
		wantCSP(t, p.path, r.header)
	}
	// Once answered, the journal lists the call with its arguments.
	p, err := e.ws.Runtime().Pending(context.Background())
	if err != nil || len(p) != 1 {
		t.Fatal(p, err)
	}
	if err := e.ws.Runtime().Respond(context.Background(), p[0].RunID, p[0].CallID, hostileName); err != nil {
		t.Fatal(err)
	}
	h, _ := e.ws.Runtime().GetExec(context.Background(), "xss-js", runtime.GetOptions{})
	waitResult(t, h)
	for _, path := range []string{"/run?id=xss-js", "/runs"} {
		r := c.get(path)
		if strings.Contains(r.body, hostileName) || strings.Contains(r.body, "<script>alert") {
			t.Errorf("%s: raw markup:\n%s", path, r.body)
		}
		if path == "/run?id=xss-js" && (!strings.Contains(r.body, `<span class="op mono">ws:ask/ok</span>`) ||
			!strings.Contains(r.body, `&#34;`+escapedName+` `+escapedOutJSON+`&#34;`) || !strings.Contains(r.body, `<pre id="value" class="json">{
  &#34;answer&#34;: &#34;`+escapedName+`&#34;
}</pre>`)) {
			t.Errorf("the finished xss-js page lacks its journal or value:\n%s", r.body)
		}
	}
}

// Every response carries the CSP and nosniff: pages, redirects, errors,
// refusals, static files and event streams.
func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	e := hostileEnv(t)
	anon := e.client()
	c := e.client()
	tok := c.mustLogin("Ada")
	if err := e.ws.FS().WriteFile(context.Background(), "/workspace/blob.bin", []byte("\x00\x01\x02ELF"), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		who    *client
		method string
		path   string
		form   url.Values
		hdr    map[string]string
		code   int
	}{
		{anon, "GET", "/login", nil, nil, 200},
		{anon, "GET", "/", nil, nil, http.StatusSeeOther},
		{anon, "GET", "/runs", nil, nil, http.StatusSeeOther},
		{anon, "POST", "/login", url.Values{"token": {"x"}}, nil, http.StatusForbidden},
		{anon, "POST", "/approvals/answer", url.Values{}, nil, http.StatusUnauthorized},
		{anon, "GET", "/static/console.js", nil, nil, 200},
		{anon, "GET", "/static/console.css", nil, nil, 200},
		{anon, "GET", "/static/nope.js", nil, nil, 404},
		{c, "GET", "/", nil, nil, http.StatusSeeOther},
		{c, "GET", "/runs", nil, nil, 200},
		{c, "GET", "/runs?page=1", nil, nil, 200},
		{c, "GET", "/runs?page=100000", nil, nil, 400},
		{c, "GET", "/run?id=xss-shell", nil, nil, 200},
		{c, "GET", "/run?id=nope", nil, nil, 404},
		{c, "GET", "/run/events?id=xss-shell", nil, nil, 200},
		{c, "GET", "/approvals", nil, nil, 200},
		{c, "GET", "/files", nil, nil, 200},
		{c, "GET", "/files?path=/nope", nil, nil, 404},
		{c, "GET", "/file?path=/workspace/blob.bin", nil, nil, 200},
		{c, "GET", "/no/such/page", nil, nil, 404},
		{c, "GET", "/changes", nil, nil, 200},
		{c, "GET", "/changes?before=1", nil, nil, 200},
		{c, "GET", "/usage", nil, nil, 200},
		{c, "GET", "/checkpoints", nil, nil, 200},
		{c, "GET", "/checkpoints?a=nope", nil, nil, 404},
		{anon, "GET", "/changes", nil, nil, http.StatusSeeOther},
		{anon, "GET", "/changes/events", nil, nil, http.StatusSeeOther},
		{c, "POST", "/run/action", url.Values{"csrf": {tok}, "action": {"kill"}, "id": {"xss-js"}},
			map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{c, "POST", "/approvals/answer", url.Values{"csrf": {tok}, "action": {"approve"}, "run": {"xss-js"}, "call": {"xss-js/1"}},
			map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{c, "POST", "/approvals/answer", url.Values{"csrf": {tok}, "action": {"nope"}}, nil, 400},
	}
	for _, tc := range cases {
		r := tc.who.do(tc.method, tc.path, tc.form, tc.hdr)
		what := tc.method + " " + tc.path
		if r.code != tc.code {
			t.Errorf("%s: status %d, want %d: %s", what, r.code, tc.code, r.body)
		}
		wantCSP(t, what, r.header)
		if tc.path == "/file?path=/workspace/blob.bin" && !strings.Contains(r.body, "This file is binary (it holds a NUL byte or is not UTF-8): the console shows only text.") {
			t.Errorf("binary file shown: %s", r.body)
		}
	}
	if r := c.get("/file?path=/workspace/" + url.QueryEscape(hostileName)); !strings.Contains(r.body, `<tr><td class="n">1</td><td><pre>`+escapedFile+`</pre></td></tr>`) {
		t.Errorf("file view without line numbers:\n%s", r.body)
	}
}
