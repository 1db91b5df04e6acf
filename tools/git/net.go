package git

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	gogit "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// ErrNetworkDenied is the code of a clone, fetch or push the embedder did
// not allow.
const ErrNetworkDenied = "ERR_GIT_NETWORK_DENIED"

// go-git picks its transport by URL scheme from a process-wide table. The
// module installs, once, an http(s) transport whose round tripper applies
// the outbound policy carried by each request's context; a request without
// one (another user of go-git in the process) goes out as go-git's default
// would.
type policyKey struct{}

// netPolicy is what a request's context carries: the outbound policy, the
// embedder's credentials and the bound on one response.
type netPolicy struct {
	out      *runtime.Outbound
	creds    func(host string) http.Header
	maxBytes int64
}

// DefaultMaxResponseBytes is the default of Options.MaxResponseBytes, the
// bound on one response of a clone, fetch, pull, push or ls-remote: 512 MiB.
const DefaultMaxResponseBytes = 512 << 20

// ResponseLimitError is the error of a transfer whose server sent more than
// Options.MaxResponseBytes in one response. It wraps vfs.EFBIG, so
// errors.Is(err, syscall.EFBIG) holds, and its message names the limit.
type ResponseLimitError struct {
	Host string // the server (host:port)
	Max  int64  // the limit's value
}

func (e *ResponseLimitError) Error() string {
	return fmt.Sprintf("the response from %s exceeds the limit MaxResponseBytes (%d bytes)", e.Host, e.Max)
}

// Unwrap returns the POSIX code of the error, EFBIG.
func (e *ResponseLimitError) Unwrap() error { return vfs.EFBIG }

// limitedBody is a response body that fails once more than its limit has
// been read, so a server cannot make the host hold an unbounded pack.
type limitedBody struct {
	body io.ReadCloser
	left int64
	err  *ResponseLimitError
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, b.err
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.body.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		// The byte past the limit is not handed on.
		return n - 1, b.err
	}
	return n, err
}

func (b *limitedBody) Close() error { return b.body.Close() }

var installOnce sync.Once

func installTransport() {
	installOnce.Do(func() {
		t := filterTransport{githttp.NewClient(&http.Client{Transport: policyTransport{}})}
		client.InstallProtocol("http", t)
		client.InstallProtocol("https", t)
	})
}

type policyTransport struct{}

func (policyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	p, _ := req.Context().Value(policyKey{}).(*netPolicy)
	if p == nil {
		return http.DefaultTransport.RoundTrip(req)
	}
	o := p.out
	if !o.Allows(req.URL) {
		return nil, fmt.Errorf("%s: host %s is not in the outbound policy's AllowHosts", ErrNetworkDenied, req.URL.Host)
	}
	// Credentials come from the embedder only: whatever the request
	// carried (go-git would send a URL's user:password) is dropped.
	req = req.Clone(req.Context())
	req.Header.Del("Authorization")
	req.URL.User = nil
	if p.creds != nil {
		for k, vs := range p.creds(req.URL.Host) {
			for _, v := range vs {
				req.Header.Add(k, v)
			}
		}
	}
	t := o.Transport
	if t == nil {
		t = http.DefaultTransport
	}
	resp, err := t.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	max := p.maxBytes
	if max <= 0 {
		max = DefaultMaxResponseBytes
	}
	if resp.ContentLength > max {
		resp.Body.Close()
		return nil, &ResponseLimitError{Host: req.URL.Host, Max: max}
	}
	resp.Body = &limitedBody{body: resp.Body, left: max, err: &ResponseLimitError{Host: req.URL.Host, Max: max}}
	return resp, nil
}

// netContext checks that the network is allowed and that remote is an
// http(s) URL the policy admits, and returns a context that carries the
// policy to the transport.
func (c *call) netContext(op, remote string) (context.Context, context.CancelFunc, error) {
	o := c.g.opts
	if !o.AllowNetwork || o.Outbound == nil {
		return nil, nil, &runtime.CallError{Code: ErrNetworkDenied, Message: fmt.Sprintf(
			"network is off: git %s needs the network, which this workspace does not allow (the embedder must pass AllowNetwork and an outbound policy)", op)}
	}
	u, err := url.Parse(remote)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, nil, &runtime.CallError{Code: ErrNetworkDenied, Message: fmt.Sprintf(
			"git %s: only http:// and https:// remotes are allowed, not %q", op, remote)}
	}
	if u.User != nil {
		return nil, nil, &runtime.CallError{Code: ErrNetworkDenied, Message: fmt.Sprintf(
			"git %s: credentials in a URL are not accepted by nook's git; the embedder supplies them", op)}
	}
	if !o.Outbound.Allows(u) {
		return nil, nil, &runtime.CallError{Code: ErrNetworkDenied, Message: fmt.Sprintf(
			"git %s: host %s is not in the outbound policy's AllowHosts", op, u.Host)}
	}
	installTransport()
	ctx := context.WithValue(c.ctx, policyKey{}, &netPolicy{out: o.Outbound, creds: o.Credentials, maxBytes: o.MaxResponseBytes})
	cancel := context.CancelFunc(func() {})
	if o.Outbound.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, o.Outbound.Timeout)
	}
	return ctx, cancel, nil
}

func (c *call) clone() (any, error) {
	if err := c.checkKeys("clone", "url", "branch", "depth", "into", "filter"); err != nil {
		return nil, err
	}
	u, _ := c.str("url")
	if u == "" {
		return nil, errors.New("clone: url is required")
	}
	// Checked here too so that a refusal keeps its code.
	_, cancel, err := c.netContext("clone", u)
	if err != nil {
		return nil, err
	}
	cancel()
	base, err := c.dir()
	if err != nil {
		return nil, err
	}
	into, _ := c.str("into")
	if into == "" {
		into = strings.TrimSuffix(u[strings.LastIndex(strings.TrimSuffix(u, "/"), "/")+1:], "/")
		into = strings.TrimSuffix(into, ".git")
	}
	dir := into
	if !strings.HasPrefix(dir, "/") {
		dir = base + "/" + into
	}
	c.a["dir"] = dir
	dir, err = c.dir()
	if err != nil {
		return nil, err
	}
	// The command line's clone: built beside dir and renamed into place,
	// so a failed clone leaves nothing.
	args := []string{"-q"}
	if b, _ := c.str("branch"); b != "" {
		args = append(args, "-b", b, "--single-branch")
	}
	if d, _ := c.num("depth"); d > 0 {
		args = append(args, "--depth", strconv.Itoa(d))
	}
	if f, _ := c.str("filter"); f != "" {
		args = append(args, "--filter="+f) // a partial clone (promisor.go)
	}
	x := &cli{c: c, config: map[string]string{}, touched: map[string]string{}, cwd: base}
	if code := cmdClone(x, append(args, u, dir)); code != 0 {
		msg := strings.TrimSpace(strings.TrimPrefix(x.err.String(), "fatal: "))
		if x.failed != nil {
			return nil, &fatalErr{text: msg, code: 128, cause: x.failed}
		}
		return nil, errors.New(msg)
	}
	st, wt := c.storage(dir)
	r, err := c.openStorage(st, wt)
	if err != nil {
		return nil, err
	}
	rp := &repo{Repository: r, wt: wt, root: dir}
	branch, head := headInfo(rp)
	return map[string]any{"path": dir, "branch": branch, "head": head}, nil
}

// remoteURL returns the first URL of a remote.
func remoteURL(r *repo, name string) (string, error) {
	rm, err := r.Remote(name)
	if err != nil {
		return "", fmt.Errorf("no remote named '%s'", name)
	}
	urls := rm.Config().URLs
	if len(urls) == 0 {
		return "", fmt.Errorf("remote '%s' has no URL", name)
	}
	return urls[0], nil
}

func (c *call) fetch() (any, error) {
	if err := c.checkKeys("fetch", "remote"); err != nil {
		return nil, err
	}
	r, err := c.open()
	if err != nil {
		return nil, err
	}
	name, _ := c.str("remote")
	if name == "" {
		name = "origin"
	}
	u, err := remoteURL(r, name)
	if err != nil {
		return nil, err
	}
	ctx, cancel, err := c.netContext("fetch", u)
	if err != nil {
		return nil, err
	}
	defer cancel()
	err = r.FetchContext(ctx, &gogit.FetchOptions{RemoteName: name})
	upToDate := errors.Is(err, gogit.NoErrAlreadyUpToDate)
	if err != nil && !upToDate {
		return nil, fmt.Errorf("fetch %s: %w", name, err)
	}
	return map[string]any{"remote": name, "upToDate": upToDate}, nil
}

func (c *call) push() (any, error) {
	if err := c.checkKeys("push", "remote", "refspecs", "force"); err != nil {
		return nil, err
	}
	r, err := c.open()
	if err != nil {
		return nil, err
	}
	name, _ := c.str("remote")
	if name == "" {
		name = "origin"
	}
	u, err := remoteURL(r, name)
	if err != nil {
		return nil, err
	}
	specs, err := c.strs("refspecs")
	if err != nil {
		return nil, err
	}
	force, _ := c.flag("force")
	var rs []config.RefSpec
	for _, s := range specs {
		if !strings.Contains(s, ":") {
			ref := plumbing.NewBranchReferenceName(s)
			s = ref.String() + ":" + ref.String()
		}
		if force && !strings.HasPrefix(s, "+") {
			s = "+" + s
		}
		spec := config.RefSpec(s)
		if err := spec.Validate(); err != nil {
			return nil, fmt.Errorf("bad refspec %q: %w", s, err)
		}
		rs = append(rs, spec)
	}
	ctx, cancel, err := c.netContext("push", u)
	if err != nil {
		return nil, err
	}
	defer cancel()
	err = r.PushContext(ctx, &gogit.PushOptions{RemoteName: name, RefSpecs: rs, Force: force})
	upToDate := errors.Is(err, gogit.NoErrAlreadyUpToDate)
	if err != nil && !upToDate {
		return nil, fmt.Errorf("push %s: %w", name, err)
	}
	return map[string]any{"remote": name, "upToDate": upToDate}, nil
}

// parseCredURL reports whether a URL carries credentials (user:password@).
func parseCredURL(s string) (bool, error) {
	u, err := url.Parse(s)
	if err != nil {
		return false, err
	}
	return u.User != nil, nil
}

// pageOne reads one directory entry: is a directory empty.
var pageOne = vfs.Page{Limit: 1}
