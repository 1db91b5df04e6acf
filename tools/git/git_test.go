package git

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/vfs"
)

var bg = context.Background()

var testID = Identity{Name: "Ada Lovelace", Email: "ada@example.com"}

// needGit skips t when the git command line is not installed.
func needGit(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed (apt-get install -y git): the comparison with the git command line needs it")
	}
	return p
}

// hostGit runs the real git in dir with a fixed identity and date and
// no user or system configuration.
func hostGit(t testing.TB, dir, date string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=" + testID.Name, "GIT_AUTHOR_EMAIL=" + testID.Email,
		"GIT_COMMITTER_NAME=" + testID.Name, "GIT_COMMITTER_EMAIL=" + testID.Email,
		"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date, "LC_ALL=C"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return string(out)
}

// newWS opens a workspace in a temporary file.
func newWS(t testing.TB, opts ...nook.Option) *nook.Workspace {
	t.Helper()
	ws, err := nook.Open(bg, filepath.Join(t.TempDir(), "ws.db"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

// nookGit runs a command line with g and fails t unless it succeeds.
func nookGit(t testing.TB, g *Git, args ...string) string {
	t.Helper()
	out := g.Run(bg, args, "")
	if out.ExitCode != 0 {
		t.Fatalf("nook git %v: exit %d\n%s%s", args, out.ExitCode, out.Stdout, out.Stderr)
	}
	return out.Stdout
}

// export copies the workspace directory root to the host directory dst.
func export(t testing.TB, f *vfs.FS, root, dst string) {
	t.Helper()
	fsys := f.IOFS()
	err := fs.WalkDir(fsys, strings.TrimPrefix(root, "/"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, strings.TrimPrefix(root, "/")), "/")
		out := filepath.Join(dst, rel)
		fi, err := f.Lstat(bg, "/"+p)
		if err != nil {
			return err
		}
		switch {
		case fi.IsDir():
			return os.MkdirAll(out, 0o755)
		case fi.Kind == vfs.TypeSymlink:
			return os.Symlink(fi.Target, out)
		}
		b, err := f.ReadFile(bg, "/"+p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, fs.FileMode(fi.Perm))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAgreesWithGit builds one history with nook and with the git command
// line, then runs the real git on nook's exported workspace.
func TestAgreesWithGit(t *testing.T) {
	needGit(t)
	ws := newWS(t)
	f := ws.FS()
	var clock time.Time
	g := New(f, Options{Identity: testID, Now: func() time.Time { return clock }})
	host := t.TempDir()

	write := func(name, content string) {
		if err := f.WriteFile(bg, "/workspace/"+name, []byte(content), &vfs.WriteOptions{MkdirAll: true}); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(host, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const d1, d2, d3 = "@1767225600 +0000", "@1767229200 +0000", "@1767232800 +0000"
	both := func(date string, args ...string) (string, string) {
		t.Helper()
		if date != "" {
			args = append(args[:1], append([]string{"--date", date}, args[1:]...)...)
		}
		d, err := parseDate(orDefault(date, d1))
		if err != nil {
			t.Fatal(err)
		}
		clock = d
		return nookGit(t, g, args...), hostGit(t, host, orDefault(date, d1), args...)
	}
	both("", "init", "-b", "main")
	write("a.txt", "one\ntwo\nthree\n")
	write("dir/b.txt", "bee\n")
	write(".gitignore", "*.log\n")
	write("x.log", "ignored\n")
	both("", "add", ".")
	n, h := both(d1, "commit", "-m", "first")
	if n != h {
		t.Errorf("commit output: nook %q, git %q", n, h)
	}
	write("a.txt", "one\n2\nthree\n")
	write("c.txt", "sea\n")
	both("", "add", "-A")
	both(d2, "commit", "-m", "second")
	both("", "branch", "feature")
	both("", "checkout", "feature")
	write("dir/b.txt", "bee\nbuzz\n")
	both(d3, "commit", "-a", "-m", "third")
	both("", "checkout", "main")
	if n, h := both("", "log", "--oneline"); n != h {
		t.Errorf("log --oneline:\nnook:\n%sgit:\n%s", n, h)
	}
	if n, h := both("", "log", "--oneline", "feature"); n != h {
		t.Errorf("log --oneline feature:\nnook:\n%sgit:\n%s", n, h)
	}
	if n, h := both("", "log", "-n", "1"); n != h {
		t.Errorf("log -n 1:\nnook:\n%sgit:\n%s", n, h)
	}
	// Modify, diff (worktree against the index, against HEAD, between
	// commits), status, reset.
	write("a.txt", "one\n2\nthree\nfour\n")
	write("c.txt", "")
	for _, args := range [][]string{{"diff"}, {"diff", "HEAD"}, {"diff", "main", "feature"}, {"diff", "HEAD~1", "HEAD"},
		{"status", "--short"}, {"show", "HEAD~1"}} {
		if n, h := both("", args...); n != h {
			t.Errorf("git %v:\nnook:\n%sgit:\n%s", args, n, h)
		}
	}
	both("", "add", "a.txt")
	if n, h := both("", "diff", "--cached"); n != h {
		t.Errorf("diff --cached:\nnook:\n%sgit:\n%s", n, h)
	}
	both("", "reset", "--hard")
	both("", "tag", "v1")
	if n := nookGit(t, g, "status", "--short"); n != "" {
		t.Errorf("status after reset --hard: %q", n)
	}

	// The real git on nook's workspace.
	out := filepath.Join(t.TempDir(), "export")
	export(t, f, "/workspace", out)
	for _, ref := range []string{"main", "feature"} {
		n := hostGit(t, out, d1, "log", "--format=%H %T %s", ref)
		h := hostGit(t, host, d1, "log", "--format=%H %T %s", ref)
		if n != h {
			t.Errorf("log of %s:\nnook's repository:\n%shost repository:\n%s", ref, n, h)
		}
	}
	if s := hostGit(t, out, d1, "status", "--porcelain"); s != "" {
		t.Errorf("git status on nook's repository: %q", s)
	}
	hostGit(t, out, d1, "fsck", "--strict", "--no-dangling")
	if n, h := hostGit(t, out, d1, "rev-parse", "v1"), hostGit(t, host, d1, "rev-parse", "v1"); n != h {
		t.Errorf("tag v1: %s, git %s", n, h)
	}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
