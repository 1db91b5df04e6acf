package git

import (
	"bytes"
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook/runtime"
)

// gitServer is a smart-HTTP git server on loopback: git http-backend (the
// real git's CGI program) behind net/http/cgi, serving the bare
// repositories under a directory the test can switch, so that the real
// git and nook's git can each be run against their own copy of one
// history at the same URL.
type gitServer struct {
	srv  *httptest.Server
	mu   sync.Mutex
	root string
	// auth, when set, is the Authorization header every request needs.
	auth string
	// seen counts the requests that carried each Authorization value.
	seen map[string]int
	n    int // requests served
}

// requests is the number of requests the server has had.
func (s *gitServer) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// port is the server's port.
func (s *gitServer) port() string {
	u, _ := url.Parse(s.srv.URL)
	return u.Port()
}

const httpBackend = "/usr/lib/git-core/git-http-backend"

// newGitServer starts a server over root.
func newGitServer(t testing.TB, root string) *gitServer {
	t.Helper()
	needGit(t)
	if _, err := os.Stat(httpBackend); err != nil {
		t.Skip("git http-backend is not installed")
	}
	s := &gitServer{root: root, seen: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		root, auth := s.root, s.auth
		s.seen[r.Header.Get("Authorization")]++
		s.n++
		s.mu.Unlock()
		if auth != "" && r.Header.Get("Authorization") != auth {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "authentication required", http.StatusUnauthorized)
			return
		}
		h := &cgi.Handler{Path: httpBackend, Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1",
			"GIT_CONFIG_NOSYSTEM=1", "HOME=" + root, "REMOTE_USER=test"}, Stderr: io.Discard}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// use points the server at root.
func (s *gitServer) use(root string) {
	s.mu.Lock()
	s.root = root
	s.mu.Unlock()
}

// url is the URL of repository name (e.g. "proj.git").
func (s *gitServer) url(name string) string { return s.srv.URL + "/" + name }

// fixedDate is the date of every commit the remote tests make, in git's
// and nook's git alike, so that the two make the same hashes.
const fixedDate = "@1767240000 +0000"

var fixedClock = time.Unix(1767240000, 0).UTC()

// realGit runs /usr/bin/git in dir with the tests' identity and date and
// no user configuration, and returns what it printed and its exit status.
func realGit(t testing.TB, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=" + testID.Name, "GIT_AUTHOR_EMAIL=" + testID.Email,
		"GIT_COMMITTER_NAME=" + testID.Name, "GIT_COMMITTER_EMAIL=" + testID.Email,
		"GIT_AUTHOR_DATE=" + fixedDate, "GIT_COMMITTER_DATE=" + fixedDate, "LC_ALL=C",
		"GIT_TERMINAL_PROMPT=0", "GIT_EDITOR=true", "GIT_MERGE_AUTOEDIT=no"}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// mustGit runs the real git and fails t unless it succeeds.
func mustGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, errs, code := realGit(t, dir, args...)
	if code != 0 {
		t.Fatalf("git %v in %s: exit %d\n%s%s", args, dir, code, out, errs)
	}
	return out
}

// makeBare makes the bare repository root/name (pushes allowed) with a
// history of n commits on main, each changing README.
func makeBare(t testing.TB, root, name string, n int) string {
	t.Helper()
	src := t.TempDir()
	mustGit(t, src, "init", "-q", "-b", "main")
	var readme strings.Builder
	for i := 1; i <= n; i++ {
		readme.WriteString("line " + strconv.Itoa(i) + "\n")
		os.WriteFile(filepath.Join(src, "README"), []byte(readme.String()), 0o644)
		mustGit(t, src, "add", "README")
		mustGit(t, src, "commit", "-q", "-m", "commit "+strconv.Itoa(i))
	}
	bare := filepath.Join(root, name)
	mustGit(t, root, "clone", "-q", "--bare", src, bare)
	mustGit(t, bare, "config", "http.receivepack", "true")
	return bare
}

// copyTree copies the host directory src to dst.
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp %s %s: %v %s", src, dst, err, out)
	}
}

// fsck checks a server repository with git fsck --strict.
func fsck(t testing.TB, bare string) {
	t.Helper()
	if out, errs, code := realGit(t, bare, "fsck", "--strict", "--no-dangling"); code != 0 || errs != "" {
		t.Fatalf("git fsck --strict of %s: exit %d\n%s%s", bare, code, out, errs)
	}
}

// remotePair runs one scenario twice over the same server URL: with the
// real git in a host directory against one copy of the server's
// repositories, and with nook's git in a workspace against another.
type remotePair struct {
	t        *testing.T
	srv      *gitServer
	hostRoot string // the real git's server repositories
	nookRoot string // nook's
	host     string // the real git's working directory (≙ /workspace)
	g        *Git
	fsckRepo string
}

// newRemotePair makes the server with proj.git (n commits) twice.
func newRemotePair(t *testing.T, n int) *remotePair {
	base := t.TempDir()
	hostRoot, nookRoot := filepath.Join(base, "host"), filepath.Join(base, "nook")
	os.MkdirAll(hostRoot, 0o755)
	makeBare(t, hostRoot, "proj.git", n)
	copyTree(t, hostRoot, nookRoot)
	srv := newGitServer(t, hostRoot)
	ws := newWS(t)
	g := New(ws.FS(), Options{Identity: testID, Now: func() time.Time { return fixedClock },
		AllowNetwork: true, Outbound: &runtime.Outbound{AllowHosts: []string{"127.0.0.1"}}})
	host := filepath.Join(base, "work")
	os.MkdirAll(host, 0o755)
	return &remotePair{t: t, srv: srv, hostRoot: hostRoot, nookRoot: nookRoot, host: host, g: g, fsckRepo: "proj.git"}
}

// both runs a command line in dir (relative to the workspace) with both
// gits and fails unless stdout, stderr and the exit status agree.
func (p *remotePair) both(dir string, args ...string) *Output {
	p.t.Helper()
	p.srv.use(p.hostRoot)
	wo, we, wc := realGit(p.t, filepath.Join(p.host, dir), args...)
	p.srv.use(p.nookRoot)
	got := p.g.Run(bg, args, "/workspace/"+dir)
	if got.Stdout != wo || got.Stderr != we || got.ExitCode != wc {
		p.t.Errorf("git %s (in %q):\n--- git: exit %d\n%s--- stderr:\n%s--- nook: exit %d\n%s--- stderr:\n%s",
			strings.Join(args, " "), dir, wc, wo, we, got.ExitCode, got.Stdout, got.Stderr)
	}
	if len(args) > 0 && args[0] == "push" {
		fsck(p.t, filepath.Join(p.nookRoot, p.fsckRepo))
	}
	return got
}

// write writes a file in both worktrees.
func (p *remotePair) write(name, data string) {
	p.t.Helper()
	full := filepath.Join(p.host, name)
	os.MkdirAll(filepath.Dir(full), 0o755)
	if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
		p.t.Fatal(err)
	}
	if err := p.g.fs.WriteFile(bg, "/workspace/"+name, []byte(data), nil); err != nil {
		p.t.Fatal(err)
	}
}

// upstream commits a change to file on branch and pushes it with the real
// git over HTTP to both copies of the server, as another developer would.
func (p *remotePair) upstream(branch, file, data, msg string) {
	p.t.Helper()
	for _, root := range []string{p.hostRoot, p.nookRoot} {
		p.srv.use(root)
		d := p.t.TempDir()
		mustGit(p.t, d, "clone", "-q", "-b", branch, p.srv.url("proj.git"), "c")
		c := filepath.Join(d, "c")
		os.WriteFile(filepath.Join(c, file), []byte(data), 0o644)
		mustGit(p.t, c, "add", file)
		mustGit(p.t, c, "commit", "-q", "-m", msg)
		mustGit(p.t, c, "push", "-q", "origin", branch)
	}
}

// sameServers checks that both copies of the server hold the same refs.
func (p *remotePair) sameServers() {
	p.t.Helper()
	a := mustGit(p.t, filepath.Join(p.hostRoot, "proj.git"), "for-each-ref")
	b := mustGit(p.t, filepath.Join(p.nookRoot, "proj.git"), "for-each-ref")
	if a != b {
		p.t.Errorf("server refs differ:\ngit's:\n%s\nnook's:\n%s", a, b)
	}
}

// readBoth returns a worktree file as each side has it.
func (p *remotePair) sameFile(name string) {
	p.t.Helper()
	want, err := os.ReadFile(filepath.Join(p.host, name))
	if err != nil {
		p.t.Fatal(err)
	}
	got, err := p.g.fs.ReadFile(bg, "/workspace/"+name)
	if err != nil || string(got) != string(want) {
		p.t.Errorf("%s: nook has %q (%v), git %q", name, got, err, want)
	}
}

func TestRemoteLifecycle(t *testing.T) {
	p := newRemotePair(t, 2)
	u := p.srv.url("proj.git")
	p.both("", "clone", u)
	p.both("", "clone", u)                     // destination exists
	p.both("", "clone", p.srv.url("nope.git")) // no such repository
	p.both("proj", "remote")
	p.both("proj", "remote", "-v")
	p.both("proj", "branch", "-a")
	p.both("proj", "log", "--oneline")
	p.both("proj", "status")
	p.both("proj", "config", "remote.origin.fetch")
	p.both("proj", "config", "branch.main.merge")
	// A new commit pushed: fast-forward.
	p.write("proj/NEW", "new\n")
	p.both("proj", "add", "NEW")
	p.both("proj", "commit", "-q", "-m", "three")
	p.both("proj", "push")
	p.both("proj", "push") // nothing new
	p.sameServers()
	p.both("proj", "status", "-sb")
	// A change pushed by the real git, fetched and pulled (fast-forward).
	p.upstream("main", "OTHER", "other\n", "four")
	p.both("proj", "fetch")
	p.both("proj", "fetch")
	p.both("proj", "status", "-sb")
	p.both("proj", "pull")
	p.both("proj", "pull")
	p.sameFile("proj/OTHER")
	// A new branch with upstream tracking.
	p.both("proj", "checkout", "-q", "-b", "feature")
	p.write("proj/F", "f\n")
	p.both("proj", "add", "F")
	p.both("proj", "commit", "-q", "-m", "feature work")
	p.both("proj", "push")
	p.both("proj", "push", "-u", "origin", "feature")
	p.both("proj", "push")
	p.both("proj", "branch", "-vv")
	p.sameServers()
	// Rejected: the remote has work the clone has not fetched, then has
	// fetched but not merged.
	p.both("proj", "checkout", "-q", "main")
	p.upstream("main", "README", "theirs\n", "upstream readme")
	p.write("proj/README", "ours\n")
	p.both("proj", "commit", "-q", "-am", "local readme")
	p.both("proj", "push")
	p.both("proj", "fetch", "-q")
	p.both("proj", "push", "origin", "main")
	// Divergent pull: git asks how to reconcile; merging conflicts.
	p.both("proj", "pull")
	p.both("proj", "pull", "--no-rebase")
	p.sameFile("proj/README")
	p.both("proj", "status")
	p.both("proj", "merge", "--abort")
	// Forced push.
	p.both("proj", "push", "-f")
	p.sameServers()
	p.both("proj", "ls-remote")
	p.both("proj", "ls-remote", "origin")
	p.both("proj", "ls-remote", "--heads", "origin")
	p.both("proj", "ls-remote", "origin", "feature")
	p.both("", "ls-remote", u)
	p.both("proj", "push", "origin", "--delete", "feature")
	p.sameServers()
}

func TestRemoteCommands(t *testing.T) {
	p := newRemotePair(t, 1)
	u := p.srv.url("proj.git")
	p.both("", "clone", "-q", u, "p")
	for _, args := range [][]string{
		{"remote", "add", "up", p.srv.url("other.git")},
		{"remote", "add", "up", u},
		{"remote"},
		{"remote", "-v"},
		{"remote", "get-url", "up"},
		{"remote", "get-url", "nope"},
		{"remote", "set-url", "up", p.srv.url("third.git")},
		{"remote", "set-url", "nope", u},
		{"remote", "get-url", "up"},
		{"remote", "rename", "up", "upstream"},
		{"remote", "rename", "nope", "x"},
		{"remote", "rename", "upstream", "origin"},
		{"remote", "-v"},
		{"remote", "remove", "upstream"},
		{"remote", "remove", "upstream"},
		{"remote", "rename", "origin", "first"},
		{"branch", "-a"},
		{"config", "branch.main.remote"},
		{"fetch", "nope"},
		{"push", "nope"},
		{"remote", "bogus"},
		{"remote", "rm", "first"},
		{"branch", "-a"},
		{"config", "branch.main.remote"},
		{"remote"},
	} {
		p.both("p", args...)
	}
}

func TestPullRebase(t *testing.T) {
	p := newRemotePair(t, 2)
	p.both("", "clone", "-q", p.srv.url("proj.git"))
	p.upstream("main", "OTHER", "other\n", "upstream")
	p.write("proj/MINE", "mine\n")
	p.both("proj", "add", "MINE")
	p.both("proj", "commit", "-q", "-m", "mine")
	p.both("proj", "pull", "--rebase")
	p.both("proj", "log", "--format=%H %P %s")
	p.both("proj", "status", "-sb")
	p.both("proj", "push")
	p.sameServers()
	// A rebase that conflicts stops as git's does.
	p.upstream("main", "README", "theirs\n", "upstream readme")
	p.write("proj/README", "ours\n")
	p.both("proj", "commit", "-q", "-am", "local readme")
	p.both("proj", "pull", "--rebase")
	p.sameFile("proj/README")
	p.both("proj", "rebase", "--abort")
	p.both("proj", "log", "--oneline")
}

func TestCloneBranchDepth(t *testing.T) {
	p := newRemotePair(t, 5)
	u := p.srv.url("proj.git")
	p.upstream("main", "A", "a\n", "six")
	// A second branch, pushed by the real git.
	for _, root := range []string{p.hostRoot, p.nookRoot} {
		mustGit(t, filepath.Join(root, "proj.git"), "branch", "side", "main~2")
	}
	p.both("", "clone", "-b", "side", u, "s")
	p.both("s", "log", "--oneline")
	p.both("s", "branch", "-a")
	p.both("s", "status")
	p.both("", "clone", "--depth", "2", u, "d")
	p.both("d", "log", "--format=%H %s")
	p.both("d", "branch", "-a")
	p.sameFile("d/.git/shallow")
	for _, root := range []string{p.hostRoot, p.nookRoot} {
		mustGit(t, filepath.Join(root, "proj.git"), "tag", "v1", "main")
		mustGit(t, filepath.Join(root, "proj.git"), "branch", "-f", "side", "main")
	}
	p.both("s", "fetch")
	p.both("s", "status", "-sb")
	p.both("s", "pull", "-q")
	p.both("s", "log", "--oneline", "-2")
	p.both("", "clone", "-b", "nope", u, "n")
	p.both("", "ls-remote", u)
	p.both("", "clone", "--depth", "0", u, "z")
	p.both("", "clone")
}

// serverGit runs the real git in proj.git of both copies of the server.
func (p *remotePair) serverGit(args ...string) {
	p.t.Helper()
	for _, root := range []string{p.hostRoot, p.nookRoot} {
		mustGit(p.t, filepath.Join(root, "proj.git"), args...)
	}
}

func TestFetchPrune(t *testing.T) {
	p := newRemotePair(t, 3)
	p.serverGit("branch", "gone", "main~1")
	p.serverGit("branch", "kept", "main~2")
	p.serverGit("branch", "later", "main")
	p.both("", "clone", "-q", p.srv.url("proj.git"))
	p.both("proj", "branch", "-r")
	p.serverGit("branch", "-D", "gone")
	p.both("proj", "fetch") // no pruning by default
	p.both("proj", "branch", "-r")
	p.both("proj", "fetch", "--prune")
	p.both("proj", "branch", "-r")
	p.both("proj", "fetch", "--prune") // nothing left to prune
	// Pruned and updated in one fetch; a long branch name widens the column.
	p.serverGit("branch", "-D", "kept")
	p.serverGit("branch", "a-rather-long-branch-name", "main~1")
	p.upstream("main", "NEW", "new\n", "four")
	p.both("proj", "fetch", "-p")
	p.both("proj", "branch", "-r")
	// fetch.prune, remote.origin.prune over it, --no-prune over both.
	p.serverGit("branch", "-D", "later")
	p.both("proj", "config", "fetch.prune", "true")
	p.both("proj", "fetch", "--no-prune")
	p.both("proj", "branch", "-r")
	p.both("proj", "config", "remote.origin.prune", "false")
	p.both("proj", "fetch")
	p.both("proj", "branch", "-r")
	p.both("proj", "config", "--unset", "remote.origin.prune")
	p.both("proj", "fetch", "-q")
	p.both("proj", "branch", "-r")
	p.serverGit("branch", "-D", "a-rather-long-branch-name")
	p.both("proj", "pull", "--prune")
	p.both("proj", "branch", "-r")
	p.both("proj", "status", "-sb")
	// git remote prune, -n first.
	p.serverGit("branch", "one", "main")
	p.serverGit("branch", "two", "main")
	p.both("proj", "fetch", "-q")
	p.serverGit("branch", "-D", "one", "two")
	p.both("proj", "remote", "prune", "-n", "origin")
	p.both("proj", "branch", "-r")
	p.both("proj", "remote", "prune", "origin")
	p.both("proj", "branch", "-r")
	p.both("proj", "remote", "prune", "origin")
	p.both("proj", "remote", "prune", "nope")
	p.both("proj", "remote", "prune")
}

func TestPushTagsDelete(t *testing.T) {
	p := newRemotePair(t, 3)
	u := p.srv.url("proj.git")
	p.both("", "clone", "-q", u)
	p.both("proj", "tag", "v1", "HEAD~2")
	p.both("proj", "tag", "-a", "v2", "-m", "version two", "HEAD~1")
	p.both("proj", "tag", "light")
	p.both("proj", "push", "--tags")
	p.sameServers()
	p.both("proj", "push", "--tags") // all there already
	p.both("proj", "ls-remote", "--tags", "origin")
	p.both("proj", "tag", "v3")
	p.write("proj/F", "f\n")
	p.both("proj", "add", "F")
	p.both("proj", "commit", "-q", "-m", "four")
	p.both("proj", "push", "--tags", "origin", "main")
	p.sameServers()
	// A tag the remote has elsewhere is rejected without --force; the
	// accepted refs are reported before it.
	p.both("proj", "tag", "-f", "v3", "HEAD~1")
	p.both("proj", "tag", "v4")
	p.both("proj", "push", "--tags")
	p.both("proj", "push", "origin", "v4:v5", "v3", "main:zz", "main:aa")
	p.both("proj", "push", "-f", "origin", "v3")
	p.sameServers()
	p.both("proj", "push", "-q", "origin", ":zz", ":aa", ":v5", ":v4")
	// --dry-run / -n: git's report, nothing sent, no ref moved.
	p.both("proj", "tag", "dry")
	p.both("proj", "push", "-n", "--tags")
	p.both("proj", "push", "--dry-run", "origin", "main:dry-branch", ":v3")
	p.both("proj", "push", "-n", "-u", "origin", "main:dry-up")
	p.both("proj", "branch", "-avv")
	p.sameServers()
	p.both("proj", "tag", "-d", "dry")
	// Sources that are HEAD, a detached HEAD or a revision.
	p.both("proj", "push", "origin", "HEAD:h1")
	p.both("proj", "push", "origin", "HEAD:refs/heads/h2")
	p.both("proj", "push", "origin", "main~1:refs/heads/h3")
	p.both("proj", "push", "origin", "main~1:h4")
	p.both("proj", "checkout", "-q", "--detach", "HEAD~1")
	p.both("proj", "push", "origin", "HEAD:h5")
	p.both("proj", "push", "origin", "HEAD:refs/heads/h5")
	p.both("proj", "push", "origin", "HEAD:h1")
	p.both("proj", "push", "origin", "nope:h1")
	p.both("proj", "checkout", "-q", "main")
	p.sameServers()
	p.both("proj", "push", "-q", "origin", ":h1", ":h2", ":h3", ":h5")
	// --follow-tags: the annotated tags the pushed commits reach, not
	// the lightweight ones nor those of other commits; push.followTags too.
	p.both("proj", "checkout", "-q", "-b", "ft")
	p.write("proj/G", "g\n")
	p.both("proj", "add", "G")
	p.both("proj", "commit", "-q", "-m", "five")
	p.both("proj", "tag", "-a", "ann5", "-m", "five")
	p.both("proj", "tag", "-a", "ann4", "-m", "four", "HEAD~1")
	p.both("proj", "tag", "light5")
	p.both("proj", "checkout", "-q", "-b", "other-side", "HEAD~2")
	p.both("proj", "tag", "-a", "elsewhere", "-m", "not pushed", "HEAD")
	p.both("proj", "checkout", "-q", "ft")
	p.both("proj", "push", "--follow-tags", "origin", "ft")
	p.both("proj", "tag", "-a", "ann6", "-m", "six")
	p.both("proj", "config", "push.followTags", "true")
	p.both("proj", "push", "origin", "ft:ft2")
	p.both("proj", "push", "--no-follow-tags", "origin", "ft:ft3")
	p.sameServers()
	p.both("proj", "checkout", "-q", "main")
	p.both("proj", "push", "-q", "origin", ":ft", ":ft2", ":ft3", ":ann4", ":ann5", ":ann6")
	// Deleting: --delete, -d, :ref, by short name or full, tags and
	// branches, and refs the remote does not have.
	p.both("proj", "push", "-q", "origin", "main:side", "main:other", "main:third")
	p.both("proj", "branch", "-r")
	p.both("proj", "push", "origin", ":side")
	p.both("proj", "push", "origin", "--delete", "other", "v1")
	p.both("proj", "push", "-d", "origin", "refs/heads/third")
	p.both("proj", "branch", "-r")
	p.both("proj", "push", "origin", ":refs/tags/v2")
	p.both("proj", "push", "origin", ":light")
	p.sameServers()
	p.both("proj", "push", "origin", ":nope")
	p.both("proj", "push", "--delete", "origin", "nope")
	p.both("proj", "push", "--delete", "origin")
	p.both("proj", "push", "--delete")
	p.both("proj", "ls-remote", "origin")
	p.sameServers()
}

// --filter: a spec git does not take gets git's error, a filter that
// leaves out more than blobs is refused by clone, and fetch --filter in a
// repository that is no partial clone is refused: with the reason,
// before any request and leaving nothing.
func TestFilter(t *testing.T) {
	p := newRemotePair(t, 2)
	u := p.srv.url("proj.git")
	p.both("", "clone", "-q", u)
	for _, spec := range []string{"foo", "", "blob:limit=abc", "blob:limit=", "tree:x", "sparse:path=a", "object:type=file"} {
		p.both("", "clone", "--filter="+spec, u, "f")
		p.both("proj", "fetch", "--filter="+spec)
	}
	p.both("", "clone", "--filter=blob:none", "--filter=foo", u, "f")
	n := p.srv.requests()
	config := nookGit(t, p.g, "-C", "proj", "config", "--list")
	clone := func(spec string) string {
		return "fatal: --filter=" + spec + ": nook's git makes partial clones that leave out blobs only (blob:none, blob:limit=<n>): " +
			"a command fetches a missing blob when it reads one, and nothing fetches missing trees or commits\n"
	}
	fetch := func(spec string) string {
		return "fatal: --filter=" + spec + ": nook's git makes a repository a partial clone only when it clones it " +
			"(clone --filter=blob:none); git's fetch --filter would turn this one into one\n"
	}
	for _, c := range []struct {
		dir, want string
		args      []string
	}{
		{"", clone("tree:0"), []string{"clone", "--filter", "tree:0", u, "f"}},
		{"", clone("object:type=blob"), []string{"clone", "-q", "--filter=object:type=blob", u, "f"}},
		{"", clone("combine:blob:none+tree:1"), []string{"clone", "--filter=combine:blob:none+tree:1", u, "f"}},
		{"proj", fetch("blob:limit=1k"), []string{"fetch", "--filter=blob:limit=1k"}},
		{"proj", fetch("blob:none"), []string{"fetch", "--filter", "blob:none", "origin"}},
	} {
		out := p.g.Run(bg, c.args, "/workspace/"+c.dir)
		if out.ExitCode != 128 || out.Stdout != "" || out.Stderr != c.want {
			t.Errorf("git %v: exit %d\n%q\nwant\n%q", c.args, out.ExitCode, out.Stderr, c.want)
		}
	}
	if got := nookGit(t, p.g, "-C", "proj", "config", "--list"); got != config {
		t.Errorf("a refused fetch changed the config:\n%s\nwas\n%s", got, config)
	}
	if got := p.srv.requests(); got != n {
		t.Errorf("a refused clone made %d requests", got-n)
	}
	if _, err := p.g.fs.Lstat(bg, "/workspace/f"); err == nil {
		t.Errorf("a refused clone left /workspace/f")
	}
}
