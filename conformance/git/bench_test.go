package git

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/tools/git"
	"github.com/nookdev/nook/vfs"
)

// The benchmarks time nook's git and /usr/bin/git on the same repository
// in the same run and report nook's time as a multiple of git's
// ("x-git"): status and log -n 50 on a generated 2,000-commit history,
// commit -a of 100 changed files.

// generate builds, with git fast-import, a history of n commits over 200
// files (each commit changes one) in a host directory, checked out.
func generate(b *testing.B, n int) string {
	dir := b.TempDir()
	var s strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&s, "commit refs/heads/main\ncommitter %s <%s> %d +0000\ndata <<EOF\ncommit %d\nEOF\n", userName, userEmail, epoch+i*60, i)
		if i == 0 {
			for f := 0; f < 200; f++ {
				fmt.Fprintf(&s, "M 100644 inline d%d/f%d.txt\ndata <<EOF\nfile %d\nEOF\n", f%10, f, f)
			}
		} else {
			fmt.Fprintf(&s, "M 100644 inline d%d/f%d.txt\ndata <<EOF\nfile %d version %d\nEOF\n", i%10, i%200, i%200, i)
		}
		s.WriteString("\n")
	}
	run := func(stdin string, args ...string) {
		cmd := exec.Command("/usr/bin/git", args...)
		cmd.Dir = dir
		cmd.Env = gitEnv(dir)
		cmd.Stdin = strings.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("", "init", "-q", "-b", "main")
	run(s.String(), "fast-import", "--quiet")
	run("", "reset", "-q", "--hard")
	return dir
}

func gitEnv(dir string) []string {
	return []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C",
		"GIT_AUTHOR_NAME=" + userName, "GIT_AUTHOR_EMAIL=" + userEmail, "GIT_COMMITTER_NAME=" + userName, "GIT_COMMITTER_EMAIL=" + userEmail}
}

// imported opens a workspace holding a copy of dir at /workspace.
func imported(b *testing.B, dir string) (*git.Git, *vfs.FS) {
	ws, err := nook.Open(bg, filepath.Join(b.TempDir(), "ws.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ws.Close() })
	if _, err := ws.FS().Import(bg, "/workspace", os.DirFS(dir), nil); err != nil {
		b.Fatal(err)
	}
	return git.New(ws.FS(), git.Options{Identity: git.Identity{Name: userName, Email: userEmail},
		Now: func() time.Time { return time.Unix(epoch, 0) }}), ws.FS()
}

// ratio runs nook's op and git's op b.N times each and reports nook/git.
func ratio(b *testing.B, nookOp, gitOp func()) {
	nookOp() // warm
	gitOp()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		nookOp()
	}
	nookTime := time.Since(start)
	b.StopTimer()
	start = time.Now()
	for i := 0; i < b.N; i++ {
		gitOp()
	}
	gitTime := time.Since(start)
	b.ReportMetric(float64(nookTime)/float64(gitTime), "x-git")
	b.ReportMetric(float64(gitTime.Microseconds())/float64(b.N), "git-µs/op")
}

func needGitB(b *testing.B) {
	if _, err := os.Stat("/usr/bin/git"); err != nil {
		b.Skip("git is not installed at /usr/bin/git: the benchmarks compare with it")
	}
}

func hostRun(b *testing.B, dir string, args ...string) {
	cmd := exec.Command("/usr/bin/git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func nookRun(b *testing.B, g *git.Git, args ...string) string {
	o := g.Run(bg, args, "/workspace")
	if o.ExitCode != 0 {
		b.Fatalf("nook git %v: %d %s", args, o.ExitCode, o.Stderr)
	}
	return o.Stdout
}

func BenchmarkStatus2000(b *testing.B) {
	needGitB(b)
	dir := generate(b, 2000)
	g, _ := imported(b, dir)
	ratio(b, func() { nookRun(b, g, "status", "--porcelain") }, func() { hostRun(b, dir, "status", "--porcelain") })
}

func BenchmarkLog50Of2000(b *testing.B) {
	needGitB(b)
	dir := generate(b, 2000)
	g, _ := imported(b, dir)
	ratio(b, func() { nookRun(b, g, "log", "-n", "50") }, func() { hostRun(b, dir, "log", "-n", "50") })
}

func BenchmarkCommitAll100(b *testing.B) {
	needGitB(b)
	dir := generate(b, 1)
	g, fsys := imported(b, dir)
	round := 0
	change := func(write func(name, content string)) {
		round++
		for f := 0; f < 100; f++ {
			write(fmt.Sprintf("d%d/f%d.txt", f%10, f), fmt.Sprintf("round %d\n", round))
		}
	}
	nookOp := func() {
		change(func(name, content string) {
			fsys.WriteFile(bg, "/workspace/"+name, []byte(content), &vfs.WriteOptions{})
		})
		nookRun(b, g, "commit", "-q", "-a", "-m", "round")
	}
	gitOp := func() {
		change(func(name, content string) { os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644) })
		hostRun(b, dir, "commit", "-q", "-a", "-m", "round")
	}
	ratio(b, nookOp, gitOp)
}
