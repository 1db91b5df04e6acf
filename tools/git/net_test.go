package git

import (
	"errors"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/vfs"
)

// serveRepos serves the bare repositories under dir over smart HTTP with
// git http-backend on loopback.
func serveRepos(t *testing.T, dir string) *httptest.Server {
	t.Helper()
	needGit(t)
	backend := "/usr/lib/git-core/git-http-backend"
	if _, err := os.Stat(backend); err != nil {
		t.Skip("git http-backend is not installed")
	}
	srv := httptest.NewServer(&cgi.Handler{Path: backend,
		Env: []string{"GIT_PROJECT_ROOT=" + dir, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1"}})
	t.Cleanup(srv.Close)
	return srv
}

// bareRepo makes a bare repository dir/name.git with two commits on main,
// and allows pushes to it.
func bareRepo(t *testing.T, dir, name string) {
	t.Helper()
	src := t.TempDir()
	hostGit(t, src, "@1767225600 +0000", "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(src, "README"), []byte("hello\n"), 0o644)
	hostGit(t, src, "@1767225600 +0000", "add", ".")
	hostGit(t, src, "@1767225600 +0000", "commit", "-q", "-m", "one")
	os.WriteFile(filepath.Join(src, "README"), []byte("hello\nworld\n"), 0o644)
	hostGit(t, src, "@1767229200 +0000", "commit", "-q", "-am", "two")
	bare := filepath.Join(dir, name+".git")
	hostGit(t, dir, "@1767225600 +0000", "clone", "-q", "--bare", src, bare)
	hostGit(t, bare, "@1767225600 +0000", "config", "http.receivepack", "true")
}

func TestNetworkRefused(t *testing.T) {
	ws := newWS(t)
	for _, opts := range []Options{{}, {AllowNetwork: true}, {Outbound: &runtime.Outbound{}}} {
		g := New(ws.FS(), opts)
		_, err := g.Call(bg, nil, "clone", map[string]any{"url": "http://127.0.0.1:1/x.git"})
		var ce *runtime.CallError
		if !errors.As(err, &ce) || ce.Code != ErrNetworkDenied || !strings.Contains(ce.Message, "AllowNetwork") {
			t.Errorf("clone with %+v: %v", opts, err)
		}
	}
	g := New(ws.FS(), Options{AllowNetwork: true, Outbound: &runtime.Outbound{AllowHosts: []string{"example.com"}}})
	for _, u := range []string{"file:///etc", "/etc", "ssh://example.com/x", "git://example.com/x", "http://127.0.0.1:1/x.git"} {
		_, err := g.Call(bg, nil, "clone", map[string]any{"url": u})
		var ce *runtime.CallError
		if !errors.As(err, &ce) || ce.Code != ErrNetworkDenied {
			t.Errorf("clone %s: %v", u, err)
		}
	}
	if l, _ := ws.FS().ReadDir(bg, "/", vfs.Page{}); len(l.Entries) != 0 {
		t.Errorf("a refused clone left %v", l.Entries)
	}
}

func TestCloneFetchPush(t *testing.T) {
	remote := t.TempDir()
	bareRepo(t, remote, "proj")
	srv := serveRepos(t, remote)
	ws := newWS(t)
	g := New(ws.FS(), Options{Identity: testID, AllowNetwork: true, Outbound: &runtime.Outbound{AllowHosts: []string{"127.0.0.1"}}})
	out := g.Run(bg, []string{"clone", srv.URL + "/proj.git"}, "")
	if out.ExitCode != 0 {
		t.Fatalf("clone: %s%s", out.Stdout, out.Stderr)
	}
	b, err := ws.FS().ReadFile(bg, "/workspace/proj/README")
	if err != nil || string(b) != "hello\nworld\n" {
		t.Fatalf("README %q %v", b, err)
	}
	want := hostGit(t, filepath.Join(remote, "proj.git"), "@1767225600 +0000", "log", "--oneline", "main")
	if got := g.Run(bg, []string{"log", "--oneline"}, "/workspace/proj"); got.Stdout != want {
		t.Fatalf("log of the clone:\n%s%s\nwant:\n%s", got.Stdout, got.Stderr, want)
	}
	// A commit pushed back.
	ws.FS().WriteFile(bg, "/workspace/proj/NEW", []byte("new\n"), nil)
	cwd := "/workspace/proj"
	if o := g.Run(bg, []string{"add", "NEW"}, cwd); o.ExitCode != 0 {
		t.Fatal(o.Stderr)
	}
	if o := g.Run(bg, []string{"commit", "-m", "three", "--date", "@1767232800 +0000"}, cwd); o.ExitCode != 0 {
		t.Fatal(o.Stderr)
	}
	if o := g.Run(bg, []string{"push", "origin", "main"}, cwd); o.ExitCode != 0 {
		t.Fatalf("push: %s", o.Stderr)
	}
	got := hostGit(t, filepath.Join(remote, "proj.git"), "@1767225600 +0000", "log", "--format=%s", "main")
	if got != "three\ntwo\none\n" {
		t.Fatalf("remote after push: %q", got)
	}
	if o := g.Run(bg, []string{"fetch"}, cwd); o.ExitCode != 0 {
		t.Fatalf("fetch: %s", o.Stderr)
	}
	hostGit(t, filepath.Join(remote, "proj.git"), "@1767225600 +0000", "fsck", "--strict")
}
