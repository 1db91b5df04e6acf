package git

import (
	"encoding/base64"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/vfs"
)

// workspaceFiles lists every path of the workspace.
func workspaceFiles(t *testing.T, f *vfs.FS) []string {
	t.Helper()
	var out []string
	fs.WalkDir(f.IOFS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != "." {
			out = append(out, "/"+p)
		}
		return nil
	})
	return out
}

// serverWithProj is a server over a fresh proj.git of n commits.
func serverWithProj(t *testing.T, n int) (*gitServer, string) {
	root := t.TempDir()
	makeBare(t, root, "proj.git", n)
	return newGitServer(t, root), filepath.Join(root, "proj.git")
}

// Without the embedder's network every remote command says the network
// is off, and a refused clone leaves nothing.
func TestRemoteNetworkOff(t *testing.T) {
	srv, _ := serverWithProj(t, 1)
	u := srv.url("proj.git")
	ws := newWS(t)
	on := New(ws.FS(), Options{Identity: testID, AllowNetwork: true, Outbound: &runtime.Outbound{}})
	if o := on.Run(bg, []string{"clone", "-q", u, "have"}, ""); o.ExitCode != 0 {
		t.Fatalf("clone: %s", o.Stderr)
	}
	off := func(op string) string {
		return "fatal: network is off: git " + op + " needs the network, which this workspace does not allow (the embedder must pass AllowNetwork and an outbound policy)\n"
	}
	for _, opts := range []Options{{}, {AllowNetwork: true}, {Outbound: &runtime.Outbound{}}} {
		g := New(ws.FS(), opts)
		for _, c := range []struct {
			args   []string
			dir    string
			stderr string
		}{
			{[]string{"clone", u}, "", "Cloning into 'proj'...\n" + off("clone")},
			{[]string{"clone", "-q", u, "x"}, "", off("clone")},
			{[]string{"ls-remote", u}, "", off("ls-remote")},
			{[]string{"fetch"}, "/workspace/have", off("fetch")},
			{[]string{"pull"}, "/workspace/have", off("fetch")},
			{[]string{"push"}, "/workspace/have", off("push")},
			{[]string{"ls-remote"}, "/workspace/have", off("ls-remote")},
		} {
			o := g.Run(bg, c.args, c.dir)
			if o.ExitCode != 128 || o.Stdout != "" || o.Stderr != c.stderr {
				t.Errorf("%+v: git %v: exit %d\n%s%s\nwant:\n%s", opts, c.args, o.ExitCode, o.Stdout, o.Stderr, c.stderr)
			}
		}
	}
	for _, p := range workspaceFiles(t, ws.FS()) {
		if !strings.HasPrefix(p, "/workspace/have") && p != "/workspace" {
			t.Errorf("a refused command left %s", p)
		}
	}
}

// A policy that does not list the host refuses it by name, redirects
// included, and the server sees nothing from a refused command.
func TestRemoteHostRefused(t *testing.T) {
	srv, _ := serverWithProj(t, 1)
	u := srv.url("proj.git")
	host := strings.TrimPrefix(srv.srv.URL, "http://")
	ws := newWS(t)
	g := New(ws.FS(), Options{AllowNetwork: true, Outbound: &runtime.Outbound{AllowHosts: []string{"example.com"}}})
	before := srv.requests()
	o := g.Run(bg, []string{"clone", u}, "")
	want := "Cloning into 'proj'...\nfatal: git clone: host " + host + " is not in the outbound policy's AllowHosts\n"
	if o.ExitCode != 128 || o.Stderr != want {
		t.Errorf("clone: exit %d %q, want %q", o.ExitCode, o.Stderr, want)
	}
	if n := srv.requests(); n != before {
		t.Errorf("the server saw %d requests of a refused clone", n-before)
	}
	for _, bad := range []string{"file:///etc", "/etc/passwd", "ssh://example.com/x", "git://example.com/x"} {
		o := g.Run(bg, []string{"clone", "-q", bad, "x"}, "")
		want := "fatal: git clone: only http:// and https:// remotes are allowed, not \"" + bad + "\"\n"
		if o.ExitCode != 128 || o.Stderr != want {
			t.Errorf("clone %s: exit %d %q", bad, o.ExitCode, o.Stderr)
		}
	}
	// A redirect is a request of its own: the allowed host 127.0.0.1
	// sends the clone to localhost, which the policy does not list.
	redir := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		to := *r.URL
		to.Scheme, to.Host = "http", "localhost:"+srv.port()
		http.Redirect(w, r, to.String(), http.StatusFound)
	}))
	defer redir.Close()
	g = New(ws.FS(), Options{AllowNetwork: true, Outbound: &runtime.Outbound{AllowHosts: []string{"127.0.0.1"}}})
	o = g.Run(bg, []string{"clone", "-q", redir.URL + "/proj.git", "r"}, "")
	want = "fatal: unable to access '" + redir.URL + "/proj.git/': host localhost:" + srv.port() + " is not in the outbound policy's AllowHosts\n"
	if o.ExitCode != 128 || !strings.HasPrefix(o.Stderr, "fatal: unable to access '"+redir.URL+"/proj.git/': ") ||
		!strings.Contains(o.Stderr, "host localhost:"+srv.port()+" is not in the outbound policy's AllowHosts") {
		t.Errorf("redirected clone: exit %d %q, want %q", o.ExitCode, o.Stderr, want)
	}
	if l := workspaceFiles(t, ws.FS()); len(l) > 1 {
		t.Errorf("refused clones left %v", l)
	}
}

// Credentials come from the embedder's callback only: a URL's
// user:password is refused, and the secret is nowhere in the workspace
// or the output.
func TestRemoteCredentials(t *testing.T) {
	srv, bare := serverWithProj(t, 1)
	const secret = "s3cr3t-t0ken"
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte("agent:"+secret))
	srv.auth = auth
	u := srv.url("proj.git")
	ws := newWS(t)
	pol := &runtime.Outbound{AllowHosts: []string{"127.0.0.1"}}
	g := New(ws.FS(), Options{Identity: testID, AllowNetwork: true, Outbound: pol})
	o := g.Run(bg, []string{"clone", "-q", u, "noauth"}, "")
	if want := "fatal: Authentication failed for '" + u + "/'\n"; o.ExitCode != 128 || o.Stderr != want {
		t.Errorf("clone without credentials: exit %d %q, want %q", o.ExitCode, o.Stderr, want)
	}
	pu, _ := url.Parse(u)
	pu.User = url.UserPassword("agent", secret)
	o = g.Run(bg, []string{"clone", "-q", pu.String(), "inurl"}, "")
	if want := "fatal: git clone: credentials in a URL are not accepted by nook's git; the embedder supplies them\n"; o.ExitCode != 128 || o.Stderr != want {
		t.Errorf("clone with a URL's credentials: exit %d %q", o.ExitCode, o.Stderr)
	}
	if srv.seen[auth] != 0 {
		t.Errorf("the URL's credentials reached the server")
	}
	var hosts []string
	g = New(ws.FS(), Options{Identity: testID, Now: func() time.Time { return fixedClock }, AllowNetwork: true, Outbound: pol,
		Credentials: func(host string) http.Header {
			hosts = append(hosts, host)
			return http.Header{"Authorization": {auth}}
		}})
	for _, args := range [][]string{{"clone", "-q", u, "p"}, {"-C", "p", "commit", "-q", "--allow-empty", "-m", "x"},
		{"-C", "p", "push", "-q"}, {"-C", "p", "fetch", "-q"}, {"-C", "p", "ls-remote", "-q"},
		{"-C", "p", "remote", "add", "x", pu.String()}} {
		o := g.Run(bg, args, "")
		if args[len(args)-2] == "x" {
			if want := "fatal: credentials in a URL are not accepted by nook's git; the embedder supplies them\n"; o.ExitCode != 128 || o.Stderr != want {
				t.Errorf("git %v: exit %d %q", args, o.ExitCode, o.Stderr)
			}
			continue
		}
		if o.ExitCode != 0 || strings.Contains(o.Stdout+o.Stderr, secret) {
			t.Fatalf("git %v: exit %d\n%s%s", args, o.ExitCode, o.Stdout, o.Stderr)
		}
	}
	if got := mustGit(t, bare, "log", "-1", "--format=%s"); got != "x\n" {
		t.Errorf("server after push: %q", got)
	}
	if len(hosts) == 0 || hosts[0] != strings.TrimPrefix(srv.srv.URL, "http://") {
		t.Errorf("credential callback hosts: %v", hosts)
	}
	for _, p := range workspaceFiles(t, ws.FS()) {
		b, err := ws.FS().ReadFile(bg, p)
		if err == nil && (strings.Contains(string(b), secret) || strings.Contains(string(b), auth)) {
			t.Errorf("%s holds the secret", p)
		}
	}
}

// A clone that would pass the workspace's MaxTotalBytes stops with the
// limit's name and leaves no repository, half or whole.
func TestCloneQuota(t *testing.T) {
	root := t.TempDir()
	src := t.TempDir()
	mustGit(t, src, "init", "-q", "-b", "main")
	// 2 MiB of incompressible data.
	data := make([]byte, 2<<20)
	x := uint32(1)
	for i := range data {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		data[i] = byte(x)
	}
	os.WriteFile(filepath.Join(src, "big.bin"), data, 0o644)
	mustGit(t, src, "add", ".")
	mustGit(t, src, "commit", "-q", "-m", "big")
	mustGit(t, root, "clone", "-q", "--bare", src, filepath.Join(root, "big.git"))
	srv := newGitServer(t, root)
	ws := newWS(t, nook.WithLimits(vfs.Limits{MaxTotalBytes: 1 << 20}))
	g := New(ws.FS(), Options{AllowNetwork: true, Outbound: &runtime.Outbound{AllowHosts: []string{"127.0.0.1"}}})
	o := g.Run(bg, []string{"clone", srv.url("big.git")}, "")
	if o.ExitCode != 128 || !strings.HasPrefix(o.Stderr, "Cloning into 'big'...\nfatal: cannot clone: ") ||
		!strings.Contains(o.Stderr, "workspace exceeds MaxTotalBytes (1048576 bytes)") {
		t.Fatalf("clone over quota: exit %d %q", o.ExitCode, o.Stderr)
	}
	// The clone function is the same clone.
	_, err := g.Call(bg, nil, "clone", map[string]any{"url": srv.url("big.git")})
	if err == nil || !strings.HasPrefix(err.Error(), "cannot clone: ") || !strings.Contains(err.Error(), "workspace exceeds MaxTotalBytes (1048576 bytes)") {
		t.Errorf("clone function over quota: %v", err)
	}
	if l := workspaceFiles(t, ws.FS()); len(l) > 1 {
		t.Errorf("a clone over quota left %v", l)
	}
	u, _ := ws.FS().Usage(bg)
	if u.Bytes != 0 {
		t.Errorf("a clone over quota left %d bytes", u.Bytes)
	}
	// The same clone fits a larger workspace.
	ws2 := newWS(t, nook.WithLimits(vfs.Limits{MaxTotalBytes: 16 << 20}))
	g = New(ws2.FS(), Options{AllowNetwork: true, Outbound: &runtime.Outbound{AllowHosts: []string{"127.0.0.1"}}})
	if o := g.Run(bg, []string{"clone", "-q", srv.url("big.git")}, ""); o.ExitCode != 0 {
		t.Fatalf("clone: %s", o.Stderr)
	}
	if b, _ := ws2.FS().ReadFile(bg, "/workspace/big/big.bin"); string(b) != string(data) {
		t.Errorf("big.bin differs")
	}
	res, err := g.Call(bg, nil, "clone", map[string]any{"url": srv.url("big.git"), "into": "j"})
	if m, _ := res.(map[string]any); err != nil || m["path"] != "/workspace/j" || m["branch"] != "main" {
		t.Errorf("clone function: %v %v", res, err)
	}
	if o := g.Run(bg, []string{"status", "--porcelain"}, "/workspace/j"); o.ExitCode != 0 || o.Stdout != "" {
		t.Errorf("status of the function's clone: %d %q %q", o.ExitCode, o.Stdout, o.Stderr)
	}
	if _, errs, code := realGit(t, t.TempDir(), "clone", "-q", srv.url("big.git")); code != 0 {
		t.Fatalf("real git clone: %s", errs)
	}

}

// A shell run's git commands are host calls, journaled with their
// results: the replay of a run (Verify) answers them from the journal and
// neither fetches nor pushes again, and the journal holds no credential.
func TestRemoteShellReplay(t *testing.T) {
	srv, bare := serverWithProj(t, 2)
	const secret = "t0ken-in-header"
	srv.auth = "Bearer " + secret
	mod, bind := LateModule(Options{Identity: testID, Now: func() time.Time { return fixedClock }, AllowNetwork: true,
		Outbound:    &runtime.Outbound{AllowHosts: []string{"127.0.0.1"}},
		Credentials: func(string) http.Header { return http.Header{"Authorization": {"Bearer " + secret}} }})
	ws := newWS(t, nook.WithBackends(shell.New(shell.Options{})), nook.WithModules(map[string]runtime.Module{ModuleName: mod}),
		nook.WithRuntime(runtime.Options{KeepJournal: true}))
	bind(ws.FS())
	script := "git clone " + srv.url("proj.git") + " && cd proj && echo new > NEW && git add NEW && git commit -q -m three && git push && git pull && git log --format=%s\n"
	h, err := ws.Runtime().Exec(bg, script, runtime.ExecOptions{Backend: "shell", ID: "r", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 || string(res.Stdout) != "Already up to date.\nthree\ncommit 2\ncommit 1\n" {
		t.Fatalf("run: exit %d\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if got := mustGit(t, bare, "log", "--format=%s"); got != "three\ncommit 2\ncommit 1\n" {
		t.Fatalf("server: %q", got)
	}
	fsck(t, bare)
	n := srv.requests()
	if err := ws.Runtime().Verify(bg, "r"); err != nil {
		t.Fatal(err)
	}
	if m := srv.requests(); m != n {
		t.Errorf("the replay made %d requests to the server", m-n)
	}
	calls, err := ws.Runtime().Journal(bg, "r")
	if err != nil {
		t.Fatal(err)
	}
	j, _ := json.Marshal(calls)
	if strings.Contains(string(j), secret) {
		t.Errorf("the journal holds the credential")
	}
	if !strings.Contains(string(j), "push") {
		t.Errorf("the journal has no push call: %s", j)
	}
}
