package git

import (
	"testing"
)

// TestRefusals checks the commands nook's git refuses say so, with
// git's fatal status, and leave the repository as it was.
func TestRefusals(t *testing.T) {
	ws := newWS(t)
	g := New(ws.FS(), Options{Identity: testID})
	nookGit(t, g, "init", "-q")
	ws.FS().WriteFile(bg, "/workspace/a.txt", []byte("a\n"), nil)
	nookGit(t, g, "add", "a.txt")
	nookGit(t, g, "commit", "-q", "-m", "one")
	for _, c := range []struct {
		args   []string
		stderr string
		code   int
	}{
		{[]string{"worktree", "add", "../other", "main"}, "fatal: 'git worktree' is not supported by nook's git: a repository has the one worktree it lives in; " +
			"to work on another branch, commit or git stash your changes and git switch to it, or git clone the repository into another directory\n", 128},
		{[]string{"worktree", "list"}, "fatal: 'git worktree' is not supported by nook's git: a repository has the one worktree it lives in; " +
			"to work on another branch, commit or git stash your changes and git switch to it, or git clone the repository into another directory\n", 128},
		{[]string{"bisect", "run", "true"}, "", 1},
		{[]string{"bisect", "log"}, "error: We are not bisecting.\n", 1},
	} {
		o := g.Run(bg, c.args, "")
		if o.Stderr != c.stderr || o.ExitCode != c.code || o.Stdout != "" {
			t.Errorf("git %v: exit %d, stdout %q, stderr %q; want exit %d, stderr %q", c.args, o.ExitCode, o.Stdout, o.Stderr, c.code, c.stderr)
		}
	}
	nookGit(t, g, "bisect", "start", "HEAD")
	// With no good commit yet, git bisect run ends at once and says
	// nothing, as git does (TestBisectRunOutsideTheShell has the refusal).
	if o := g.Run(bg, []string{"bisect", "run", "sh", "-c", "exit 0"}, ""); o.ExitCode != 1 || o.Stderr != "" || o.Stdout != "" {
		t.Errorf("bisect run: exit %d, stdout %q, stderr %q", o.ExitCode, o.Stdout, o.Stderr)
	}
	if got := nookGit(t, g, "bisect", "log"); got != "# bad: ["+mustRev(t, g, "HEAD")+"] one\ngit bisect start 'HEAD'\n# status: waiting for good commit(s), bad commit known\n" {
		t.Errorf("bisect log %q", got)
	}
	nookGit(t, g, "bisect", "reset")
	if o := g.Run(bg, []string{"bisect", "reset"}, ""); o.Stdout != "We are not bisecting.\n" || o.ExitCode != 0 {
		t.Errorf("second reset: %d %q %q", o.ExitCode, o.Stdout, o.Stderr)
	}
}

func mustRev(t *testing.T, g *Git, rev string) string {
	out := nookGit(t, g, "rev-parse", rev)
	return out[:len(out)-1]
}
