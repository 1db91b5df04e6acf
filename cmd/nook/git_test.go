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
