package git

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
)

func TestShellGitCommand(t *testing.T) {
	mod, bind := LateModule(Options{Identity: testID})
	ws := newWS(t, nook.WithBackends(shell.New(shell.Options{})), nook.WithModules(map[string]runtime.Module{ModuleName: mod}),
		nook.WithRuntime(runtime.Options{KeepJournal: true}))
	bind(ws.FS())
	script := `
mkdir -p proj && cd proj
git init
printf 'one\n' > a.txt
git add a.txt
git commit -m first --date '@1767225600 +0000'
printf 'two\n' >> a.txt
git status --short
git diff | grep '^+two'
git commit -a -m second --date '@1767229200 +0000' > /dev/null
git log --oneline | wc -l
git branch feature && git checkout feature > /dev/null && git branch
cd .. && git status || echo "exit $?"
which git
git bogus; echo "bogus $?"
`
	h, err := ws.Runtime().Exec(bg, script, runtime.ExecOptions{Backend: "shell", ID: "s", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil {
		t.Fatal(err)
	}
	want := `Initialized empty Git repository in /workspace/proj/.git/
[main (root-commit) ` // the hash follows
	out := string(res.Stdout)
	if !strings.HasPrefix(out, want) {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", out, res.Stderr)
	}
	if !strings.Contains(out, "] first\n Date: Thu Jan 1 00:00:00 2026 +0000\n 1 file changed, 1 insertion(+)\n create mode 100644 a.txt\n M a.txt\n+two\n2\n* feature\n  main\nexit 128\n/usr/bin/git\nbogus 1\n") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", out, res.Stderr)
	}
	if !strings.Contains(string(res.Stderr), "not a git repository") {
		t.Fatalf("stderr:\n%s", res.Stderr)
	}
	if err := ws.Runtime().Verify(bg, "s"); err != nil {
		t.Fatal(err)
	}
	// Without ws:git, git is no command.
	ws2 := newWS(t, nook.WithBackends(shell.New(shell.Options{})))
	h, err = ws2.Runtime().Exec(bg, "git status", runtime.ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, _ = h.Result(bg)
	if res.ExitCode != 127 || !strings.Contains(string(res.Stderr), "git: command not found") {
		t.Fatalf("git without the module: %d %s", res.ExitCode, res.Stderr)
	}
}

// TestShellGitChanges checks that files git changes in the worktree
// (checkout, merge, stash pop, reset --hard) are in the run's Changes
// report, as what they are.
func TestShellGitChanges(t *testing.T) {
	mod, bind := LateModule(Options{Identity: testID})
	ws := newWS(t, nook.WithBackends(shell.New(shell.Options{})), nook.WithModules(map[string]runtime.Module{ModuleName: mod}))
	bind(ws.FS())
	setup := `
git init -q
printf 'one\n' > a.txt
printf 'keep\n' > k.txt
git add . && git commit -q -m first
git checkout -q -b feature
printf 'feature\n' > f.txt
git add f.txt && git commit -q -m feature
git checkout -q main
printf 'changed\n' > k.txt
git stash -q
`
	h, err := ws.Runtime().Exec(bg, setup, runtime.ExecOptions{Backend: "shell"})
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := h.Result(bg); res.ExitCode != 0 {
		t.Fatalf("setup: %d %s", res.ExitCode, res.Stderr)
	}
	h, err = ws.Runtime().Exec(bg, "git merge -q feature && git stash pop -q && git rm -q a.txt", runtime.ExecOptions{Backend: "shell"})
	if err != nil {
		t.Fatal(err)
	}
	res, _ := h.Result(bg)
	if res.ExitCode != 0 || res.Changes == nil {
		t.Fatalf("exit %d, changes %v: %s", res.ExitCode, res.Changes, res.Stderr)
	}
	got := fmt.Sprintf("created %v updated %v deleted %v", res.Changes.Created, res.Changes.Updated, res.Changes.Deleted)
	want := "created [/workspace/f.txt] updated [/workspace/k.txt] deleted [/workspace/a.txt]"
	if got != want {
		t.Fatalf("changes: %s, want %s", got, want)
	}
}
