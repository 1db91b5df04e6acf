package git

import (
	"fmt"
	"io"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools/git"
)

// The remote benchmarks clone a generated 1,000-commit repository from
// git http-backend on loopback, with nook's git and with /usr/bin/git in
// the same run, then time status and log -n 50 on each one's clone.

// serveBare generates a 1,000-commit history and serves it as proj.git.
func serveBare(b *testing.B) string {
	const backend = "/usr/lib/git-core/git-http-backend"
	if _, err := os.Stat(backend); err != nil {
		b.Skip("git http-backend is not installed")
	}
	src := generate(b, 1000)
	root := b.TempDir()
	hostRun(b, root, "clone", "-q", "--bare", src, filepath.Join(root, "proj.git"))
	srv := httptest.NewServer(&cgi.Handler{Path: backend, Stderr: io.Discard,
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + root}})
	b.Cleanup(srv.Close)
	return srv.URL + "/proj.git"
}

// netGit is nook's git over a fresh workspace with the loopback allowed.
func netGit(b *testing.B) *git.Git {
	ws, err := nook.Open(bg, filepath.Join(b.TempDir(), "ws.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ws.Close() })
	return git.New(ws.FS(), git.Options{Identity: git.Identity{Name: userName, Email: userEmail},
		Now: func() time.Time { return time.Unix(epoch, 0) }, AllowNetwork: true,
		Outbound: &runtime.Outbound{AllowHosts: []string{"127.0.0.1"}}})
}

func BenchmarkClone1000(b *testing.B) {
	needGitB(b)
	u := serveBare(b)
	g := netGit(b)
	host := b.TempDir()
	n, m := 0, 0
	ratio(b, func() {
		n++
		nookRun(b, g, "clone", "-q", u, fmt.Sprintf("c%d", n))
	}, func() {
		m++
		hostRun(b, host, "clone", "-q", u, fmt.Sprintf("c%d", m))
	})
}

// cloned clones the served repository with both gits, for the commands
// timed on a clone.
func cloned(b *testing.B) (*git.Git, string) {
	needGitB(b)
	u := serveBare(b)
	g := netGit(b)
	nookRun(b, g, "clone", "-q", u, "/workspace/c")
	host := b.TempDir()
	hostRun(b, host, "clone", "-q", u, "c")
	return g, filepath.Join(host, "c")
}

func BenchmarkStatusCloned1000(b *testing.B) {
	g, dir := cloned(b)
	ratio(b, func() { nookRunIn(b, g, "/workspace/c", "status") }, func() { hostRun(b, dir, "status") })
}

func BenchmarkLog50Cloned1000(b *testing.B) {
	g, dir := cloned(b)
	ratio(b, func() { nookRunIn(b, g, "/workspace/c", "log", "-n", "50") }, func() { hostRun(b, dir, "log", "-n", "50") })
}

func nookRunIn(b *testing.B, g *git.Git, dir string, args ...string) string {
	o := g.Run(bg, args, dir)
	if o.ExitCode != 0 {
		b.Fatalf("nook git %v: %d %s", args, o.ExitCode, o.Stderr)
	}
	return o.Stdout
}
