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

// gitMadeHistories are histories nook's git cannot make itself (octopus
// merges): /usr/bin/git makes them, nook reads a copy of the repository,
// and log --graph must draw them as git does.
var gitMadeHistories = map[string]string{
	"octopus": `
commit a.txt first
branch b1 b2 b3
checkout b1
commit b1.txt one
checkout b2
commit b2.txt two
checkout b3
commit b3.txt three
checkout main
commit a.txt "main work"
octopus b1 b2 b3
`,
	"octopus-left": `
commit a.txt first
branch b1 b2 b3
checkout b1
commit b1.txt one
checkout b2
commit b2.txt two
checkout b3
commit b3.txt three
checkout b1
octopus main b2 b3
checkout main
commit a.txt "main after"
`,
	"octopus-five": `
commit a.txt first
branch b1 b2 b3 b4
checkout b1
commit b1.txt one
checkout b2
commit b2.txt two
checkout b3
commit b3.txt three
checkout b4
commit b4.txt four
commit b4.txt four-more
checkout main
octopus b1 b2 b3 b4
commit a.txt after
`,
}

var graphQueries = []string{
	"log --graph --oneline --all",
	"log --graph --oneline --decorate --all",
	"log --graph --all",
	"log --graph --format=%s --all --stat",
	"log --graph --oneline",
}

func TestGraphOfGitMadeHistories(t *testing.T) {
	if _, err := os.Stat("/usr/bin/git"); err != nil {
		t.Skip("git is not installed at /usr/bin/git")
	}
	for name, script := range gitMadeHistories {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			n := 0
			run := func(args ...string) string {
				n++
				when := fmt.Sprintf("@%d +0000", epoch+60*n)
				cmd := exec.Command("/usr/bin/git", args...)
				cmd.Dir = dir
				cmd.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C",
					"GIT_AUTHOR_NAME=" + userName, "GIT_AUTHOR_EMAIL=" + userEmail, "GIT_COMMITTER_NAME=" + userName,
					"GIT_COMMITTER_EMAIL=" + userEmail, "GIT_AUTHOR_DATE=" + when, "GIT_COMMITTER_DATE=" + when}
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
				return string(out)
			}
			run("init", "-q", "-b", "main")
			for _, line := range strings.Split(strings.TrimSpace(script), "\n") {
				w := split(line)
				switch w[0] {
				case "commit":
					p := filepath.Join(dir, w[1])
					old, _ := os.ReadFile(p)
					os.WriteFile(p, append(old, []byte(w[2]+"\n")...), 0o644)
					run("add", w[1])
					run("commit", "-q", "-m", w[2])
				case "branch":
					for _, b := range w[1:] {
						run("branch", b)
					}
				case "checkout":
					run("checkout", "-q", w[1])
				case "octopus":
					run(append([]string{"merge", "-q", "-m", "octopus"}, w[1:]...)...)
				}
			}
			ws, err := nook.OpenMemory(bg)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			err = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
				if err != nil || fi.IsDir() {
					return err
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(dir, p)
				return ws.FS().WriteFile(bg, "/workspace/"+filepath.ToSlash(rel), b, &vfs.WriteOptions{MkdirAll: true})
			})
			if err != nil {
				t.Fatal(err)
			}
			g := git.New(ws.FS(), git.Options{Identity: git.Identity{Name: userName, Email: userEmail}, Now: func() time.Time { return time.Unix(epoch, 0) }})
			for _, q := range graphQueries {
				want := run(strings.Fields(q)...)
				o := g.Run(bg, strings.Fields(q), "/workspace")
				if testing.Verbose() {
					t.Logf("git %s:\n%s", q, o.Stdout)
				}
				if o.ExitCode != 0 || o.Stdout != want {
					t.Errorf("git %s: exit %d, stderr %q\ngit:\n%s\nnook:\n%s", q, o.ExitCode, o.Stderr, want, o.Stdout)
				}
			}
		})
	}
}
