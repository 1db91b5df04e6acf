package coreutils

import (
	"bufio"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/nookdev/nook/runtime/host"
)

// curl and wget: HTTP through the run's host (a KindFetch call), so the
// workspace's outbound policy applies (its allowed hosts, response bound
// and timeout) and every request is journaled and replayed. Without a
// policy the network is off.

func init() {
	register("curl", "curl [-sSfLIikv] [-X METHOD] [-H 'Name: value']... [-d DATA | --data-binary @FILE | --json DATA] [-o FILE | -O] [-w FORMAT] [-u USER:PASS] [-A AGENT] [-m SECONDS] URL...\n"+
		"Requests go through the workspace's outbound policy (allowed hosts, response size, timeout); redirects are always followed (at most 10).", curl)
	register("wget", "wget [-q] [-O FILE|-] [-P DIR] [--header='Name: value'] [--post-data=DATA] [--method=METHOD] [-S] URL...\n"+
		"Requests go through the workspace's outbound policy.", wget)
}

// httpResponse is a fetch result.
type httpResponse struct {
	status     int
	statusText string
	url        string
	headers    [][2]string
	body       []byte
}

func (r *httpResponse) header(name string) string {
	for _, h := range r.headers {
		if strings.EqualFold(h[0], name) {
			return h[1]
		}
	}
	return ""
}

// errNetworkOff is the fetch refusal of a workspace without a policy.
var errNetworkOff = errors.New("network is off: the workspace has no outbound network policy (the embedder enables it with nook.WithOutbound)")

// fetch makes one request through the host.
func (e *Env) fetch(ctx context.Context, method, u string, headers map[string]string, body []byte) (*httpResponse, error) {
	args := map[string]any{"url": u, "method": method}
	if len(headers) > 0 {
		h := map[string]any{}
		for k, v := range headers {
			h[k] = v
		}
		args["headers"] = h
	}
	if body != nil {
		args["body"] = body
	}
	v, err := e.FS.Host().Call(ctx, &host.Call{Kind: host.KindFetch, Op: "fetch", Args: args})
	if err != nil {
		var ce *host.CallError
		if errors.As(err, &ce) && ce.Code == "ERR_FETCH_DENIED" && strings.Contains(ce.Message, "no outbound network policy") {
			return nil, errNetworkOff
		}
		var le *host.LimitError
		if errors.As(err, &le) && e.Stop != nil {
			e.Stop(le)
		}
		return nil, err
	}
	m, _ := v.(map[string]any)
	r := &httpResponse{}
	st, _ := m["status"].(float64)
	r.status = int(st)
	r.statusText, _ = m["statusText"].(string)
	r.url, _ = m["url"].(string)
	if hs, ok := m["headers"].([]any); ok {
		for _, h := range hs {
			if p, ok := h.([]any); ok && len(p) == 2 {
				k, _ := p[0].(string)
				val, _ := p[1].(string)
				r.headers = append(r.headers, [2]string{k, val})
			}
		}
	}
	switch b := m["body"].(type) {
	case []byte:
		r.body = b
	case string:
		r.body = []byte(b)
	}
	return r, nil
}

// headerArg parses "Name: value".
func headerArg(h map[string]string, s string) {
	k, v, _ := strings.Cut(s, ":")
	k = strings.TrimSpace(k)
	if k == "" {
		return
	}
	v = strings.TrimSpace(v)
	if v == "" && strings.HasSuffix(s, ";") {
		v = ""
	}
	h[k] = v
}

func curl(e *Env, args []string) int {
	o, urls, ok := e.parse(&flagSpec{bools: "sSfLIikvOGgN#", vals: "XHdouAmwrTebF", long: map[string]bool{"silent": false, "show-error": false,
		"fail": false, "location": false, "head": false, "include": false, "insecure": false, "verbose": false, "remote-name": false,
		"request": true, "header": true, "data": true, "data-binary": true, "data-raw": true, "data-urlencode": true, "json": true,
		"output": true, "user": true, "user-agent": true, "max-time": true, "write-out": true, "url": true, "compressed": false,
		"upload-file": true, "get": false, "fail-with-body": false, "retry": true, "connect-timeout": true, "referer": true,
		"create-dirs": false, "no-progress-meter": false, "progress-bar": false, "globoff": false, "http1.1": false, "cookie": true, "form": true},
		alias: map[string]string{"silent": "s", "show-error": "S", "fail": "f", "location": "L", "head": "I", "include": "i",
			"insecure": "k", "verbose": "v", "remote-name": "O", "request": "X", "header": "H", "data": "d", "output": "o",
			"user": "u", "user-agent": "A", "max-time": "m", "write-out": "w", "upload-file": "T", "get": "G", "referer": "e", "cookie": "b", "form": "F"}}, args)
	if !ok {
		return 2
	}
	urls = append(urls, o["url"]...)
	quiet := o.has("s") && !o.has("S")
	fail := func(code int, format string, a ...any) int {
		if !quiet {
			fmt.Fprintf(e.Stderr, "curl: (%d) %s\n", code, fmt.Sprintf(format, a...))
		}
		return code
	}
	if len(urls) == 0 {
		fmt.Fprintln(e.Stderr, "curl: no URL specified!\ncurl: try 'curl --help' for more information")
		return 2
	}
	if o.has("F") {
		return fail(2, "-F/--form is not supported in the sandbox; send the body with --data-binary @file and a Content-Type header")
	}
	headers := map[string]string{}
	for _, h := range o["H"] {
		headerArg(headers, h)
	}
	if a := o.last("A", ""); a != "" {
		headers["User-Agent"] = a
	} else if _, set := headers["User-Agent"]; !set {
		headers["User-Agent"] = "curl/8.0 (nook)"
	}
	if r := o.last("e", ""); r != "" {
		headers["Referer"] = r
	}
	if c := o.last("b", ""); c != "" && strings.Contains(c, "=") {
		headers["Cookie"] = c
	}
	if u := o.last("u", ""); u != "" {
		headers["Authorization"] = "Basic " + base64.StdEncoding.EncodeToString([]byte(u))
	}
	// The body: -d/--data (joined with &, @file with newlines dropped),
	// --data-binary/--data-raw, --data-urlencode, --json, -T.
	var body []byte
	var parts []string
	readArg := func(v string, binary bool) (string, bool) {
		if !strings.HasPrefix(v, "@") {
			return v, true
		}
		b, err := e.ReadAll(v[1:])
		if err != nil {
			fail(26, "Failed to open/read local data from file/application")
			return "", false
		}
		s := string(b)
		if !binary {
			s = strings.NewReplacer("\r", "", "\n", "").Replace(s)
		}
		return s, true
	}
	for _, k := range []string{"d", "data-binary", "data-raw", "data-urlencode", "json"} {
		for _, v := range o[k] {
			var s string
			switch k {
			case "data-raw":
				s = v
			case "data-urlencode":
				name, val, has := strings.Cut(v, "=")
				if has {
					s = url.QueryEscape(val)
					if name != "" {
						s = name + "=" + s
					}
				} else {
					s = url.QueryEscape(v)
				}
			default:
				var ok bool
				if s, ok = readArg(v, k != "d"); !ok {
					return 26
				}
			}
			parts = append(parts, s)
		}
	}
	method := ""
	if len(parts) > 0 && !o.has("G") {
		body = []byte(strings.Join(parts, "&"))
		method = "POST"
		if o.has("json") {
			if _, set := headers["Content-Type"]; !set {
				headers["Content-Type"] = "application/json"
			}
			if _, set := headers["Accept"]; !set {
				headers["Accept"] = "application/json"
			}
		} else if _, set := headers["Content-Type"]; !set {
			headers["Content-Type"] = "application/x-www-form-urlencoded"
		}
	}
	if t := o.last("T", ""); t != "" {
		b, err := e.ReadAll(t)
		if err != nil {
			return fail(26, "Failed to open/read local data from file/application")
		}
		body, method = b, "PUT"
	}
	if o.has("G") && len(parts) > 0 {
		for i, u := range urls {
			sep := "?"
			if strings.Contains(u, "?") {
				sep = "&"
			}
			urls[i] = u + sep + strings.Join(parts, "&")
		}
	}
	if o.has("I") {
		method = "HEAD"
	}
	if x := o.last("X", ""); x != "" {
		method = x
	}
	if method == "" {
		method = "GET"
	}
	ctx := e.Ctx
	if m := o.last("m", ""); m != "" {
		secs, err := strconv.ParseFloat(m, 64)
		if err != nil || secs < 0 {
			return fail(2, "option -m: expected a proper numerical parameter")
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(secs*float64(time.Second)))
		defer cancel()
	}
	outs := o["o"]
	status := 0
	for i, raw := range urls {
		u := raw
		if !strings.Contains(u, "://") {
			u = "http://" + u
		}
		if pu, err := url.Parse(u); err != nil || pu.Host == "" || (pu.Scheme != "http" && pu.Scheme != "https") {
			if err == nil && pu.Scheme != "http" && pu.Scheme != "https" {
				status = fail(1, "Protocol \"%s\" not supported", pu.Scheme)
			} else {
				status = fail(3, "URL rejected: Malformed input to a URL function")
			}
			continue
		}
		if o.has("v") {
			fmt.Fprintf(e.Stderr, "> %s %s\n", method, u)
			for k, v := range headers {
				fmt.Fprintf(e.Stderr, "> %s: %s\n", k, v)
			}
		}
		resp, err := e.fetch(ctx, method, u, headers, body)
		if err != nil {
			switch {
			case errors.Is(err, errNetworkOff):
				status = fail(7, "%s", err)
			case ctx.Err() != nil && e.Ctx.Err() == nil:
				status = fail(28, "Operation timed out")
			case e.Ctx.Err() != nil:
				return 1
			default:
				var ce *host.CallError
				if errors.As(err, &ce) && ce.Code == "ERR_FETCH_DENIED" {
					status = fail(7, "%s", strings.TrimPrefix(ce.Message, "fetch: "))
				} else if errors.As(err, &ce) && ce.Code == "ERR_FETCH_TOO_LARGE" {
					status = fail(63, "%s", strings.TrimPrefix(ce.Message, "fetch: "))
				} else {
					status = fail(7, "%s", strings.TrimPrefix(err.Error(), "fetch failed: "))
				}
			}
			continue
		}
		if o.has("v") {
			fmt.Fprintf(e.Stderr, "< HTTP/1.1 %d %s\n", resp.status, resp.statusText)
			for _, h := range resp.headers {
				fmt.Fprintf(e.Stderr, "< %s: %s\n", h[0], h[1])
			}
		}
		if (o.has("f") || o.has("fail-with-body")) && resp.status >= 400 {
			if o.has("fail-with-body") {
				e.Stdout.Write(resp.body)
			}
			status = fail(22, "The requested URL returned error: %d", resp.status)
			continue
		}
		var head strings.Builder
		if o.has("I") || o.has("i") {
			fmt.Fprintf(&head, "HTTP/1.1 %d %s\r\n", resp.status, resp.statusText)
			for _, h := range resp.headers {
				fmt.Fprintf(&head, "%s: %s\r\n", h[0], h[1])
			}
			head.WriteString("\r\n")
		}
		data := []byte(head.String())
		if !o.has("I") {
			data = append(data, resp.body...)
		}
		dest := ""
		switch {
		case i < len(outs):
			dest = outs[i]
		case o.has("O"):
			pu, _ := url.Parse(u)
			dest = path.Base(pu.Path)
			if dest == "/" || dest == "." || dest == "" {
				status = fail(23, "Remote file name has no length")
				continue
			}
		}
		if dest == "/dev/null" {
			data = nil
		} else if dest != "" && dest != "-" && dest != "/dev/stdout" {
			if o.has("create-dirs") {
				if d := path.Dir(dest); d != "." {
					e.FS.Mkdir(e.Ctx, e.Abs(d), true)
				}
			}
			if err := e.FS.WriteFile(e.Ctx, e.Abs(dest), data, "w"); err != nil {
				status = fail(23, "Failure writing output to destination: %s: %s", dest, textOf(err))
				continue
			}
		} else {
			e.Stdout.Write(data)
		}
		if w := o.last("w", ""); w != "" {
			io := strings.NewReplacer("%{http_code}", fmt.Sprintf("%03d", resp.status), "%{response_code}", fmt.Sprintf("%03d", resp.status),
				"%{url_effective}", resp.url, "%{content_type}", resp.header("content-type"),
				"%{size_download}", strconv.Itoa(len(resp.body)), "%{method}", method, "%{num_redirects}", "0",
				"\\n", "\n", "\\t", "\t", "\\r", "\r", "%%", "%").Replace(w)
			fmt.Fprint(e.Stdout, io)
		}
	}
	return status
}

func wget(e *Env, args []string) int {
	o, urls, ok := e.parse(&flagSpec{bools: "qSvcN", vals: "OPUT", long: map[string]bool{"quiet": false, "output-document": true,
		"directory-prefix": true, "header": true, "post-data": true, "post-file": true, "method": true, "body-data": true,
		"server-response": false, "user-agent": true, "timeout": true, "no-verbose": false, "no-check-certificate": false,
		"content-on-error": false, "tries": true, "continue": false},
		alias: map[string]string{"quiet": "q", "output-document": "O", "directory-prefix": "P", "server-response": "S",
			"user-agent": "U", "timeout": "T", "continue": "c"}}, args)
	if !ok {
		return 2
	}
	if len(urls) == 0 {
		fmt.Fprintln(e.Stderr, "wget: missing URL\nUsage: wget [OPTION]... [URL]...")
		return 1
	}
	quiet := o.has("q")
	headers := map[string]string{"User-Agent": o.last("U", "Wget/1.21 (nook)")}
	for _, h := range o["header"] {
		headerArg(headers, h)
	}
	var body []byte
	method := "GET"
	if d := o.last("post-data", ""); o.has("post-data") {
		body, method = []byte(d), "POST"
	}
	if f := o.last("post-file", ""); f != "" {
		b, err := e.ReadAll(f)
		if err != nil {
			e.FileErr(f, err)
			return 1
		}
		body, method = b, "POST"
	}
	if o.has("body-data") {
		body = []byte(o.last("body-data", ""))
	}
	if m := o.last("method", ""); m != "" {
		method = strings.ToUpper(m)
	}
	if body != nil {
		if _, set := headers["Content-Type"]; !set {
			headers["Content-Type"] = "application/x-www-form-urlencoded"
		}
	}
	ctx := e.Ctx
	if t := o.last("T", ""); t != "" {
		if secs, err := strconv.ParseFloat(t, 64); err == nil && secs > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, time.Duration(secs*float64(time.Second)))
			defer cancel()
		}
	}
	status := 0
	var outAll *bufio.Writer
	dest := o.last("O", "")
	for _, raw := range urls {
		u := raw
		if !strings.Contains(u, "://") {
			u = "http://" + u
		}
		if !quiet {
			fmt.Fprintf(e.Stderr, "--%s--  %s\n", e.Now().UTC().Format("2006-01-02 15:04:05"), u)
		}
		resp, err := e.fetch(ctx, method, u, headers, body)
		if err != nil {
			if e.Ctx.Err() != nil {
				return 1
			}
			if !quiet {
				msg := err.Error()
				var ce *host.CallError
				if errors.As(err, &ce) {
					msg = strings.TrimPrefix(ce.Message, "fetch: ")
				}
				fmt.Fprintf(e.Stderr, "wget: %s\n", msg)
			}
			status = 4
			continue
		}
		if o.has("S") && !quiet {
			fmt.Fprintf(e.Stderr, "  HTTP/1.1 %d %s\n", resp.status, resp.statusText)
			for _, h := range resp.headers {
				fmt.Fprintf(e.Stderr, "  %s: %s\n", h[0], h[1])
			}
		}
		if resp.status >= 400 {
			if !quiet {
				fmt.Fprintf(e.Stderr, "%s ERROR %d: %s.\n", e.Now().UTC().Format("2006-01-02 15:04:05"), resp.status, resp.statusText)
			}
			status = 8
			if !o.has("content-on-error") {
				continue
			}
		}
		name := dest
		if name == "" {
			pu, _ := url.Parse(resp.url)
			name = path.Base(pu.Path)
			if name == "/" || name == "." || name == "" {
				name = "index.html"
			}
			if p := o.last("P", ""); p != "" {
				e.FS.Mkdir(e.Ctx, e.Abs(p), true)
				name = strings.TrimSuffix(p, "/") + "/" + name
			}
		}
		if name == "-" {
			if outAll == nil {
				outAll = bufio.NewWriter(e.Stdout)
				defer outAll.Flush()
			}
			outAll.Write(resp.body)
			continue
		}
		flag := "w"
		if dest != "" && len(urls) > 1 {
			flag = "a"
		}
		if err := e.FS.WriteFile(e.Ctx, e.Abs(name), resp.body, flag); err != nil {
			fmt.Fprintf(e.Stderr, "%s: %s\n", name, textOf(err))
			status = 3
			continue
		}
		if !quiet {
			fmt.Fprintf(e.Stderr, "Saving to: '%s'\n\n%s - '%s' saved [%d/%d]\n\n", name, e.Now().UTC().Format("2006-01-02 15:04:05"), name, len(resp.body), len(resp.body))
		}
	}
	return status
}
