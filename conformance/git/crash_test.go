package git

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/internal/childproc"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
	"github.com/nookdev/nook/tools/git"
)

// TestMain lets the test binary be the process the crash test kills: with
// NOOK_GIT_CRASH_DB set it starts crashScript as run "g" under the replay
// policy in that workspace, says it started and waits for the run to end.
func TestMain(m *testing.M) {
	if db := os.Getenv("NOOK_GIT_CRASH_DB"); db != "" {
		ctx := context.Background()
		ws, err := openCrash(db, false)
		if err != nil {
			panic(err)
		}
		script := crashScript
		if u := os.Getenv("NOOK_GIT_CRASH_URL"); u != "" {
			script = remoteCrashScript(u)
		}
		h, err := ws.Runtime().Exec(ctx, script, runtime.ExecOptions{ID: "g", Backend: "shell", OnInterrupt: runtime.PolicyReplay})
		if err != nil {
			panic(err)
		}
		childproc.Ready()
		h.Wait(ctx)
		ws.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// crashScript commits, branches, merges (fast-forward and three-way),
// stashes and pops, cherry-picks and rebases, printing as it goes.
const crashScript = `
git init -q
printf 'one\ntwo\nthree\n' > a.txt
git add a.txt
git commit -m first
for i in 1 2 3 4; do
  printf 'line %s\n' $i >> log.txt
  git add log.txt
  git commit -q -m "log $i"
done
git checkout -b feature
printf 'one\ntwo\nTHREE\n' > a.txt
git commit -am "feature: three"
printf 'f\n' > f.txt
git add f.txt
git commit -m "feature: f"
git checkout main
printf 'ONE\ntwo\nthree\n' > a.txt
git commit -am "main: one"
git merge feature
git log --oneline -3
printf 'wip\n' >> log.txt
git stash
git status -s
git stash pop
git commit -qam "after stash"
git checkout -b topic HEAD~2
printf 't\n' > t.txt
git add t.txt
git commit -m "topic: t"
git rebase main
git checkout main
git merge topic
git cherry-pick feature~1 || git cherry-pick --abort
git log --format='%h %s' -12
git status
`

// crashClock is the git module's clock: fixed, so the hashes of a run
// do not depend on when it ran (or was replayed).
func crashClock() time.Time { return time.Unix(epoch, 0).UTC() }

func openCrash(db string, recover bool) (*nook.Workspace, error) {
	mod, bind := git.LateModule(git.Options{Identity: git.Identity{Name: userName, Email: userEmail}, Now: crashClock,
		AllowNetwork: true, Outbound: &runtime.Outbound{AllowHosts: []string{"127.0.0.1"}}})
	ws, err := nook.Open(context.Background(), db, nook.WithBackends(shell.New(shell.Options{})),
		nook.WithModules(map[string]runtime.Module{git.ModuleName: mod}), nook.WithRuntime(runtime.Options{Recover: recover}))
	if err != nil {
		return nil, err
	}
	bind(ws.FS())
	return ws, nil
}

// outcome is what a run of crashScript left.
type outcome struct {
	status, stdout, stderr, history string
	files                           []string
}

func collectOutcome(t *testing.T, ws *nook.Workspace, res *runtime.Result) outcome {
	t.Helper()
	g := git.New(ws.FS(), git.Options{Identity: git.Identity{Name: userName, Email: userEmail}, Now: crashClock})
	o := outcome{status: string(res.Status), stdout: string(res.Stdout), stderr: string(res.Stderr)}
	o.history = g.Run(bg, []string{"log", "--all", "--format=%H %T %s"}, "").Stdout
	ns := &nookSide{fs: ws.FS()}
	for p, c := range ns.tree(t) {
		o.files = append(o.files, p+"="+c)
	}
	sort.Strings(o.files)
	return o
}

// TestCrashReplay SIGKILLs a process running crashScript at random moments
// (NOOK_GIT_CRASH_ITERATIONS, default 20) and resumes the run in a fresh
// process: it must end with the output, the commit hashes and the files
// of an uninterrupted run.
func TestCrashReplay(t *testing.T) {
	n := 20
	if s := os.Getenv("NOOK_GIT_CRASH_ITERATIONS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 2))
	dir := t.TempDir()

	ws, err := openCrash(filepath.Join(dir, "ref.db"), false)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	h, err := ws.Runtime().Exec(bg, crashScript, runtime.ExecOptions{ID: "g", Backend: "shell", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil {
		t.Fatal(err)
	}
	live := time.Since(start)
	ref := collectOutcome(t, ws, res)
	ws.Close()
	if ref.status != string(runtime.StatusCompleted) || !strings.Contains(ref.stdout, "Merge made by the 'ort' strategy.") ||
		!strings.Contains(ref.history, "topic: t") {
		t.Fatalf("uninterrupted run: %s\nstdout:\n%s\nstderr:\n%s\nhistory:\n%s", ref.status, ref.stdout, ref.stderr, ref.history)
	}
	t.Logf("uninterrupted run: %v", live)

	for i := 0; i < n; i++ {
		delay := time.Duration(rng.Int64N(int64(live) * 11 / 10))
		t.Run(fmt.Sprintf("%02d-%s", i, delay.Round(time.Millisecond)), func(t *testing.T) {
			db := filepath.Join(dir, fmt.Sprintf("%d.db", i))
			cmd := childproc.Start(t, "NOOK_GIT_CRASH_DB="+db)
			time.Sleep(delay)
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
			ws, err := openCrash(db, false)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			ctx, cancel := context.WithTimeout(bg, time.Minute)
			defer cancel()
			h, err := ws.Runtime().GetExec(ctx, "g", runtime.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := h.Result(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := collectOutcome(t, ws, res)
			if got.status != ref.status || got.stdout != ref.stdout || got.stderr != ref.stderr {
				t.Logf("first difference: %s", firstDiff(got.stdout+"\x00"+got.stderr, ref.stdout+"\x00"+ref.stderr))
				t.Errorf("status %s (want %s)\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s", got.status, ref.status, got.stdout, ref.stdout, got.stderr, ref.stderr)
			}
			if got.history != ref.history {

				t.Errorf("history:\n%s\nwant:\n%s", got.history, ref.history)

			}
			if strings.Join(got.files, "\n") != strings.Join(ref.files, "\n") {
				t.Errorf("files:\n%s\nwant:\n%s", strings.Join(got.files, "\n"), strings.Join(ref.files, "\n"))
			}
		})
	}
}

// firstDiff shows the first line where two texts differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d: %q, want %q", i+1, x, y)
		}
	}
	return ""
}
