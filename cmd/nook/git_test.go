package main

import (
	"strings"
	"testing"
)

func TestGit(t *testing.T) {
	w := newWS(t)
	if r := w.run("git", "init"); r.code != 0 || r.stdout != "Initialized empty Git repository in /workspace/.git/\n" {
		t.Fatalf("init: %+v", r)
	}
	if r := w.runIn([]byte("hello\n"), "put", "/workspace/a.txt"); r.code != 0 {
		t.Fatalf("put: %+v", r)
	}
	w.run("git", "add", "a.txt")
	r := w.run("git", "--name", "Ada", "--email", "ada@example.com", "commit", "-m", "first", "--date", "@1767225600 +0000")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "[main (root-commit) ") || !strings.Contains(r.stdout, "] first\n Date: Thu Jan 1 00:00:00 2026 +0000\n 1 file changed, 1 insertion(+)\n") {
		t.Fatalf("commit: %+v", r)
	}
	if r := w.run("git", "log"); !strings.Contains(r.stdout, "Author: Ada <ada@example.com>\nDate:   Thu Jan 1 00:00:00 2026 +0000\n\n    first\n") {
		t.Fatalf("log: %+v", r)
	}
	if r := w.run("git", "-c", "user.name=Grace", "-c", "user.email=g@example.com", "commit", "-q", "--allow-empty", "-m", "second"); r.code != 0 {
		t.Fatalf("commit with -c: %+v", r)
	}
	if r := w.run("git", "log", "-1", "--format=%an <%ae>"); r.stdout != "Grace <g@example.com>\n" {
		t.Fatalf("log after -c: %+v", r)
	}
	if r := w.run("git", "status", "-sb"); r.stdout != "## main\n" {
		t.Fatalf("status -sb: %+v", r)
	}
	if r := w.run("git", "status"); r.stdout != "On branch main\nnothing to commit, working tree clean\n" {
		t.Fatalf("status: %+v", r)
	}
	// git's global options pass through nook's own flags, in any order.
	for _, args := range [][]string{
		{"git", "--no-pager", "status", "-sb"},
		{"git", "-P", "status", "-sb"},
		{"git", "-C", "/workspace", "--no-pager", "--no-optional-locks", "status", "-sb"},
		{"git", "--no-pager", "-C", "/workspace", "-c", "a.b=1", "-c", "c.d=2", "status", "-sb"},
	} {
		if r := w.run(args...); r.code != 0 || r.stdout != "## main\n" || r.stderr != "" {
			t.Errorf("%q: %+v", args, r)
		}
	}
	if r := w.run("git", "--bogus-global", "status"); r.code != 129 || !strings.HasPrefix(r.stderr, "unknown option: --bogus-global\nusage: git ") {
		t.Errorf("unknown global option: %+v", r)
	}
	if r := w.run("git", "-C", "/workspace", "bogus"); r.code != 1 || !strings.Contains(r.stderr, "'bogus' is not a git command") {
		t.Fatalf("bogus: %+v", r)
	}
	if r := w.run("git", "clone", "http://127.0.0.1:1/x.git"); r.code != 128 || !strings.Contains(r.stderr, "needs the network") {
		t.Fatalf("clone without --allow-network: %+v", r)
	}
	if r := w.run("git", "-C", "/etc", "status"); r.code != 128 || !strings.Contains(r.stderr, "outside /workspace") {
		t.Fatalf("status outside: %+v", r)
	}
}

// TestGitBisectRun: nook git bisect run runs its command at every step
// (in nook's shell, as one run) and ends as git does.
func TestGitBisectRun(t *testing.T) {
	w := newWS(t)
	w.run("git", "init", "-q", "proj")
	for i, body := range []string{"1\n", "2\n", "3\nbug\n", "4\nbug\n"} {
		if r := w.runIn([]byte(body), "put", "/workspace/proj/a.txt"); r.code != 0 {
			t.Fatalf("put: %+v", r)
		}
		w.run("git", "-C", "proj", "add", "a.txt")
		if r := w.run("git", "-C", "proj", "commit", "-q", "-m", "c"+string(rune('1'+i))); r.code != 0 {
			t.Fatalf("commit: %+v", r)
		}
	}
	if r := w.run("git", "-C", "proj", "bisect", "start", "HEAD", "HEAD~3"); r.code != 0 {
		t.Fatalf("bisect start: %+v", r)
	}
	r := w.run("git", "-C", "proj", "bisect", "run", "sh", "-c", "! grep -q bug a.txt")
	if r.code != 0 || !strings.Contains(r.stdout, "running  'sh' '-c' ''\\!' grep -q bug a.txt'\n") ||
		!strings.Contains(r.stdout, " is the first bad commit\n") || !strings.Contains(r.stdout, "\n    c3\n") ||
		!strings.HasSuffix(r.stdout, "bisect found first bad commit") {
		t.Fatalf("bisect run: %+v", r)
	}
	if r := w.run("git", "-C", "proj", "bisect", "log"); !strings.Contains(r.stdout, "] c3\n") || !strings.Contains(r.stdout, "# first bad commit: [") {
		t.Fatalf("bisect log: %+v", r)
	}
	w.run("git", "-C", "proj", "bisect", "reset")
	// Not bisecting: git's silent exit 1.
	if r := w.run("git", "-C", "proj", "bisect", "run", "true"); r.code != 1 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("bisect run without a bisection: %+v", r)
	}
}
