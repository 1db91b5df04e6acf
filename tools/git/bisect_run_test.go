package git

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
)

// bisectRunScript builds eight commits, the sixth bringing a bug, and runs
// git bisect run every way it can end: found, only skipped commits left,
// an exit status of 128 or more, 127 that the good commit shows is the
// test's (and one that it shows is not), a script file, no command, and
// no bisection.
const bisectRunScript = `
git init -q -b main
for i in 1 2 3 4 5 6 7 8; do
  if [ $i -ge 6 ]; then printf '%s\nbug\n' $i > a.txt; else printf '%s\n' $i > a.txt; fi
  git add a.txt
  git commit -q -m c$i --date '@1767225600 +0000'
done
git bisect start HEAD HEAD~7
git bisect run sh -c '! grep -q bug a.txt'; echo "rc=$?"
git bisect log
git bisect reset
echo "[skip]"
git bisect start HEAD HEAD~7 > /dev/null
git bisect run sh -c 'exit 125'; echo "rc=$?"
git bisect reset > /dev/null 2>&1
echo "[200]"
git bisect start HEAD HEAD~7 > /dev/null
git bisect run sh -c 'exit 200'; echo "rc=$?"
git bisect reset > /dev/null 2>&1
echo "[127 everywhere]"
git bisect start HEAD HEAD~7 > /dev/null
git bisect run sh -c 'exit 127'; echo "rc=$?"
git log --oneline -1
git bisect reset > /dev/null 2>&1
echo "[127 from the test]"
git bisect start HEAD HEAD~7 > /dev/null
git bisect run sh -c 'test $(head -n 1 a.txt) -ge 4 && exit 127; exit 0'; echo "rc=$?"
git bisect reset > /dev/null 2>&1
echo "[script]"
printf '#!/bin/sh\nif grep -q bug a.txt; then echo "bad at $(head -n 1 a.txt)"; exit 3; fi\necho "good at $(head -n 1 a.txt)"\n' > ../check.sh
chmod +x ../check.sh
git bisect start HEAD HEAD~7 > /dev/null
git bisect run ../check.sh; echo "rc=$?"
git bisect reset > /dev/null 2>&1
echo "[no command]"
git bisect start HEAD HEAD~7 > /dev/null
git bisect run; echo "rc=$?"
git bisect reset > /dev/null 2>&1
echo "[no bisection]"
git bisect run true; echo "rc=$?"
git bisect start
git bisect run true; echo "rc=$?"
git bisect reset
git log --oneline -1
git status --short
`

// TestShellBisectRunDifferential runs bisectRunScript in nook's shell and
// in bash with git, and compares what each prints and its exit status.
func TestShellBisectRunDifferential(t *testing.T) {
	gitBin := needGit(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	when := time.Unix(1767225600, 0).UTC()

	host := t.TempDir()
	repo := host + "/repo"
	if err := os.Mkdir(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, "-c", bisectRunScript)
	cmd.Dir = repo
	cmd.Env = []string{"HOME=" + host, "PATH=" + binDir(gitBin) + ":/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=" + testID.Name, "GIT_AUTHOR_EMAIL=" + testID.Email,
		"GIT_COMMITTER_NAME=" + testID.Name, "GIT_COMMITTER_EMAIL=" + testID.Email,
		"GIT_COMMITTER_DATE=@1767225600 +0000", "LC_ALL=C"}
	var hostOut, hostErr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &hostOut, &hostErr
	hostCode := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		hostCode = ee.ExitCode()
	}

	mod, bind := LateModule(Options{Identity: testID, Now: func() time.Time { return when }})
	ws := newWS(t, nook.WithBackends(shell.New(shell.Options{})), nook.WithModules(map[string]runtime.Module{ModuleName: mod}),
		nook.WithRuntime(runtime.Options{KeepJournal: true}))
	bind(ws.FS())
	if err := ws.FS().MkdirAll(bg, "/workspace/repo", 0o755); err != nil {
		t.Fatal(err)
	}
	h, err := ws.Runtime().Exec(bg, bisectRunScript, runtime.ExecOptions{Backend: "shell", ID: "bisect", Cwd: "repo", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil {
		t.Fatal(err)
	}
	// The shell's own message for a missing command differs from dash's;
	// nothing else may.
	if got, want := string(res.Stdout), hostOut.String(); got != want {
		t.Errorf("stdout differs from git's\n%s", lineDiff(want, got))
	}
	if got, want := string(res.Stderr), hostErr.String(); got != want {
		t.Errorf("stderr differs from git's\n%s", lineDiff(want, got))
	}
	if res.ExitCode != hostCode {
		t.Errorf("exit %d, git's %d", res.ExitCode, hostCode)
	}
	// Every step was a journaled call: a replay walks the same steps.
	if err := ws.Runtime().Verify(bg, "bisect"); err != nil {
		t.Fatal(err)
	}
}

func binDir(p string) string { return p[:strings.LastIndex(p, "/")] }

// lineDiff shows where two outputs part, line by line.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		mark := " "
		if wl != gl {
			mark = "!"
		}
		b.WriteString(mark + " git:  " + wl + "\n" + mark + " nook: " + gl + "\n")
	}
	return b.String()
}

// TestBisectRunOutsideTheShell: a caller that cannot run a command (the
// JavaScript module's run, nook git without a shell) is told where git
// bisect run works, and the bisection is left as it was.
func TestBisectRunOutsideTheShell(t *testing.T) {
	ws := newWS(t)
	g := New(ws.FS(), Options{Identity: testID})
	for _, args := range [][]string{{"init", "-q"}, {"commit", "-q", "--allow-empty", "-m", "one"}, {"commit", "-q", "--allow-empty", "-m", "two"},
		{"commit", "-q", "--allow-empty", "-m", "three"}, {"bisect", "start", "HEAD", "HEAD~2"}} {
		if o := g.Run(bg, args, ""); o.ExitCode != 0 {
			t.Fatalf("git %v: %d %s", args, o.ExitCode, o.Stderr)
		}
	}
	o := g.Run(bg, []string{"bisect", "run", "true"}, "")
	if o.ExitCode != 128 || o.Stderr != "fatal: "+bisectRunRefusal+"\n" || o.Stdout != "" {
		t.Errorf("bisect run: exit %d, stdout %q, stderr %q", o.ExitCode, o.Stdout, o.Stderr)
	}
	if o := g.Run(bg, []string{"bisect", "log"}, ""); !strings.HasSuffix(o.Stdout, "git bisect start 'HEAD' 'HEAD~2'\n") {
		t.Errorf("bisect log after the refusal: %q", o.Stdout)
	}
}
