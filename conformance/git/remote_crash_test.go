package git

import (
	"context"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook/internal/childproc"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/tools/git"
)

// remoteCrashScript clones u, commits and pushes, printing as it goes.
func remoteCrashScript(u string) string {
	return "git clone " + u + " proj\ncd proj\nprintf 'new\\n' > NEW\ngit add NEW\ngit commit -q -m three\n" +
		"git push -q\ngit log --format='%H %s'\ngit status -sb\nls -a /workspace\n"
}

// crashServer serves a fresh copy of the pristine bare repository.
func crashServer(t *testing.T, pristine string) (string, string) {
	return killingServer(t, pristine, nil)
}

// transferKill is a SIGKILL the server sends the process under test while
// it serves one kind of request (POST .../git-upload-pack: the clone;
// .../git-receive-pack: the push): before answering, after the first
// bytes of its answer, or after all of it.
type transferKill struct {
	service string // "git-upload-pack" or "git-receive-pack"
	moment  int    // 0 before, 1 during, 2 after the response
	proc    atomic.Pointer[os.Process]
	once    sync.Once
	done    atomic.Bool
}

// kill kills the process once it is known (the run may reach the server
// before childproc.Start returns).
func (k *transferKill) kill() {
	k.once.Do(func() {
		for i := 0; i < 1000 && k.proc.Load() == nil; i++ {
			time.Sleep(5 * time.Millisecond)
		}
		if p := k.proc.Load(); p != nil {
			k.done.Store(true) // before the kill, which ends the test's Wait
			p.Signal(syscall.SIGKILL)
		}
	})
}

// killWriter kills the process after the first write of a response.
type killWriter struct {
	http.ResponseWriter
	k *transferKill
}

func (w killWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
	w.k.kill()
	return n, err
}

// killingServer is crashServer whose handler carries out k (nil: none).
func killingServer(t *testing.T, pristine string, k *transferKill) (string, string) {
	t.Helper()
	root := t.TempDir()
	if out, err := exec.Command("cp", "-a", pristine, filepath.Join(root, "proj.git")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	h := &cgi.Handler{Path: "/usr/lib/git-core/git-http-backend", Stderr: io.Discard, Logger: log.New(io.Discard, "", 0),
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + root}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if k == nil || r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/"+k.service) || k.done.Load() {
			h.ServeHTTP(w, r)
			return
		}
		switch k.moment {
		case 0:
			k.kill()
			h.ServeHTTP(w, r)
		case 1:
			h.ServeHTTP(killWriter{w, k}, r)
		default:
			h.ServeHTTP(w, r)
			k.kill()
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/proj.git", filepath.Join(root, "proj.git")
}

// TestRemoteCrashReplay SIGKILLs a process cloning, committing and
// pushing at random moments (NOOK_GIT_CRASH_ITERATIONS, default 20), as
// many times while the server answers its clone and as many while it
// answers its push, and
// resumes the run in a fresh process: the run ends as an uninterrupted
// one does (same output, one clone, no temporary directory left), and the
// server holds the pushed commit once and passes git fsck --strict.
func TestRemoteCrashReplay(t *testing.T) {
	if _, err := os.Stat("/usr/lib/git-core/git-http-backend"); err != nil {
		t.Skip("git http-backend is not installed")
	}
	n := 20
	if testing.Short() {
		n = 3
	}
	if s := os.Getenv("NOOK_GIT_CRASH_ITERATIONS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 3))
	src := t.TempDir()
	var fi strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&fi, "commit refs/heads/main\ncommitter %s <%s> %d +0000\ndata <<EOF\ncommit %d\nEOF\nM 100644 inline f%d.txt\ndata <<EOF\nfile %d\nEOF\n\n", userName, userEmail, epoch+i*60, i, i%50, i)
	}
	run := func(dir, stdin string, args ...string) string {
		cmd := exec.Command("/usr/bin/git", args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, gitEnv(dir), strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run(src, "", "init", "-q", "-b", "main")
	run(src, fi.String(), "fast-import", "--quiet")
	pristine := filepath.Join(t.TempDir(), "proj.git")
	run(src, "", "clone", "-q", "--bare", src, pristine)
	run(pristine, "", "config", "http.receivepack", "true")
	dir := t.TempDir()

	outcome := func(t *testing.T, db, bare string, res *runtime.Result) (string, string) {
		t.Helper()
		if out := run(bare, "", "fsck", "--strict", "--no-dangling"); out != "" {
			t.Errorf("fsck: %s", out)
		}
		server := run(bare, "", "log", "--format=%H %s", "-3", "main")
		return fmt.Sprintf("%s\n%s\n%s", res.Status, res.Stdout, res.Stderr), server
	}
	u, bare := crashServer(t, pristine)
	ws, err := openCrash(filepath.Join(dir, "ref.db"), false)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	h, err := ws.Runtime().Exec(bg, remoteCrashScript(u), runtime.ExecOptions{ID: "g", Backend: "shell", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(bg)
	if err != nil {
		t.Fatal(err)
	}
	live := time.Since(start)
	ref, refServer := outcome(t, "", bare, res)
	ws.Close()
	if !strings.Contains(ref, "## main...origin/main\n") || !strings.HasPrefix(refServer, strings.SplitN(ref, "\n", 3)[1]+"\n") {
		t.Fatalf("uninterrupted run:\n%s\nserver:\n%s", ref, refServer)
	}
	t.Logf("uninterrupted run: %v", live)
	// n kills at random moments of the run, then n while the server
	// answers the clone and n while it answers the push, each at one of
	// three moments of that answer.
	for i := 0; i < 3*n; i++ {
		var k *transferKill
		delay := time.Duration(rng.Int64N(int64(live) * 11 / 10))
		name := fmt.Sprintf("%02d-%s", i, delay.Round(time.Millisecond))
		if i >= n {
			k = &transferKill{service: "git-upload-pack", moment: rng.IntN(3)}
			if i >= 2*n {
				k.service = "git-receive-pack"
			}
			name = fmt.Sprintf("%02d-%s-%s", i, k.service, []string{"before", "during", "after"}[k.moment])
		}
		t.Run(name, func(t *testing.T) {
			u, bare := killingServer(t, pristine, k)
			db := filepath.Join(dir, fmt.Sprintf("%d.db", i))
			cmd := childproc.Start(t, "NOOK_GIT_CRASH_DB="+db, "NOOK_GIT_CRASH_URL="+u)
			if k == nil {
				time.Sleep(delay)
				cmd.Process.Signal(syscall.SIGKILL)
			} else {
				k.proc.Store(cmd.Process)
			}
			err := cmd.Wait()
			if k != nil && !k.done.Load() {
				t.Fatalf("the run ended (%v) without the server killing it", err)
			}
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
			got, server := outcome(t, db, bare, res)
			if got != ref {
				t.Errorf("run:\n%s\nwant:\n%s", got, ref)
			}
			if server != refServer {
				t.Errorf("server:\n%s\nwant:\n%s", server, refServer)
			}
			g := git.New(ws.FS(), git.Options{})
			if o := g.Run(bg, []string{"status", "--porcelain"}, "/workspace/proj"); o.ExitCode != 0 || o.Stdout != "" {
				t.Errorf("status of the clone: %d %q %q", o.ExitCode, o.Stdout, o.Stderr)
			}
		})
	}
}
