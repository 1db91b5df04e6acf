package host

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

func cryptoRandom(p []byte) { rand.Read(p) }

// fetchArgs is what a KindFetch call carries.
type fetchArgs struct {
	url     string
	method  string
	headers map[string]string
	body    []byte
}

func parseFetchArgs(args map[string]any) (*fetchArgs, error) {
	fa := &fetchArgs{method: "GET", headers: map[string]string{}}
	fa.url, _ = args["url"].(string)
	if m, ok := args["method"].(string); ok && m != "" {
		fa.method = strings.ToUpper(m)
	}
	switch h := args["headers"].(type) {
	case map[string]any:
		for k, v := range h {
			s, ok := v.(string)
			if !ok {
				return nil, fetchErr("ERR_INVALID_ARG_TYPE", "fetch: header %q must be a string", k)
			}
			fa.headers[k] = s
		}
	case []any:
		for _, kv := range h {
			pair, ok := kv.([]any)
			if !ok || len(pair) != 2 {
				return nil, fetchErr("ERR_INVALID_ARG_TYPE", "fetch: headers must be [name, value] pairs")
			}
			k, _ := pair[0].(string)
			v, _ := pair[1].(string)
			fa.headers[k] = v
		}
	}
	switch b := args["body"].(type) {
	case []byte:
		fa.body = b
	case string:
		fa.body = []byte(b)
	}
	return fa, nil
}

func fetchErr(code, format string, args ...any) *CallError {
	return &CallError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Allows reports whether the policy lets code reach u: every host when
// AllowHosts is empty, else the names it lists ("api.example.com"),
// subdomains of "*.example.com" entries, or "host:port" entries (a URL
// without a port has its scheme's).
func (o *Outbound) Allows(u *url.URL) bool {
	if len(o.AllowHosts) == 0 {
		return true
	}
	host := strings.ToLower(u.Hostname())
	hostport := strings.ToLower(u.Host)
	if u.Port() == "" {
		port := "80"
		if u.Scheme == "https" {
			port = "443"
		}
		hostport = net.JoinHostPort(host, port)
	}
	for _, a := range o.AllowHosts {
		a = strings.ToLower(a)
		switch {
		case strings.HasPrefix(a, "*."):
			if strings.HasSuffix(host, a[1:]) {
				return true
			}
		case strings.Contains(a, ":"):
			if a == hostport {
				return true
			}
		case a == host:
			return true
		}
	}
	return false
}

// fetch performs one HTTP request under the outbound policy and returns
// the whole response: {status, statusText, url, headers: [[name, value]...],
// body}. The body is read in full, bounded by MaxResponseBytes, so that a
// journal can record it and replay it.
func fetch(ctx context.Context, o *Outbound, l Limits, args map[string]any) (any, error) {
	if o == nil {
		return nil, fetchErr("ERR_FETCH_DENIED", "fetch is not available: the workspace has no outbound network policy")
	}
	fa, err := parseFetchArgs(args)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(fa.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fetchErr("ERR_INVALID_URL", "fetch: invalid URL %q (only absolute http and https URLs)", fa.url)
	}
	if !o.Allows(u) {
		return nil, fetchErr("ERR_FETCH_DENIED", "fetch: %s is not in the workspace's allowed hosts", u.Host)
	}
	if int64(len(fa.body)) > l.MaxCallBytes {
		return nil, &LimitError{Limit: "MaxCallBytes", Max: l.MaxCallBytes,
			What: fmt.Sprintf("fetch request body of %d bytes", len(fa.body))}
	}
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, fa.method, u.String(), bytes.NewReader(fa.body))
	if err != nil {
		return nil, fetchErr("ERR_INVALID_ARG_VALUE", "fetch: %v", err)
	}
	for k, v := range fa.headers {
		req.Header.Set(k, v)
	}
	rt := o.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	client := &http.Client{Transport: rt, CheckRedirect: func(r *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return fmt.Errorf("stopped after 10 redirects")
		}
		if !o.Allows(r.URL) {
			return fmt.Errorf("redirect to %s is not in the workspace's allowed hosts", r.URL.Host)
		}
		return nil
	}}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fetchErr("ERR_FETCH_FAILED", "fetch failed: %v", err)
	}
	defer resp.Body.Close()
	max := o.MaxResponseBytes
	if max <= 0 {
		max = DefaultMaxResponseBytes
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, fetchErr("ERR_FETCH_FAILED", "fetch: reading the response: %v", err)
	}
	if int64(len(body)) > max {
		return nil, fetchErr("ERR_FETCH_TOO_LARGE", "fetch: the response body exceeds %d bytes (Outbound.MaxResponseBytes)", max)
	}
	names := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		names = append(names, k)
	}
	sort.Strings(names)
	var headers []any
	for _, k := range names {
		for _, v := range resp.Header[k] {
			headers = append(headers, []any{strings.ToLower(k), v})
		}
	}
	return map[string]any{
		"status":     float64(resp.StatusCode),
		"statusText": strings.TrimSpace(strings.TrimPrefix(resp.Status, fmt.Sprint(resp.StatusCode))),
		"url":        resp.Request.URL.String(),
		"headers":    headers,
		"body":       body,
	}, nil
}
