package shell_test

import (
	"context"
	"fmt"
	mrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/internal/childproc"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
)

// replayExecScript uses the commands whose effects leave the shell: shuf
// (journaled randomness), curl (a journaled fetch), timeout and node (a
// nested run on the js backend, a run of its own with its own journal).
const replayExecScript = `echo start >> log.txt
s=$(shuf -i 1-1000000 -n 2 | paste -sd,)
echo "s=$s"
r=$(curl -s "$URL/n")
echo "r=$r"
echo "curl $r" >> log.txt
timeout 20 node -e 'require("fs").appendFileSync("log.txt", "node " + process.argv.at(-1) + "\n"); console.log("node ran")' "$s"
sleep 0.4
timeout 20 node -e 'setTimeout(() => console.log("slow node"), 300)'
echo end >> log.txt
echo "again s=$s r=$r"
cat log.txt`

// execWorkspace opens db with the shell and js backends and an outbound
// policy allowing host.
func execWorkspace(db, host string) (*nook.Workspace, error) {
	return nook.Open(context.Background(), db, nook.WithBackends(shell.New(shell.Options{}), js.New(js.Options{})),
		nook.WithOutbound(&runtime.Outbound{AllowHosts: []string{host}}))
}

// replayExecChild is the child process of TestShellExecReplayAfterCrash.
func replayExecChild() {
	ctx := context.Background()
	u, _ := url.Parse(os.Getenv("NOOK_SHELL_URL"))
	ws, err := execWorkspace(os.Getenv("NOOK_SHELL_DB"), u.Host)
	if err != nil {
		panic(err)
	}
	h, err := ws.Runtime().Exec(ctx, replayExecScript, runtime.ExecOptions{Backend: "shell", ID: "s", OnInterrupt: runtime.PolicyReplay,
		Env: map[string]string{"LC_ALL": "C", "URL": u.String()}})
	if err != nil {
		panic(err)
	}
	childproc.Ready()
	h.Wait(ctx)
	os.Exit(0)
}

// A replay-policy script using shuf, curl, timeout and node, SIGKILLed at
// random moments (30 times; 4 in short mode) in a real process, is resumed
// by the next one: each append to log.txt happens once (the node program's
// too: the resumed shell attaches to the same nested run), shuf's draws
// and curl's answer are the same before and after, and output is printed
// once. The server counts requests: a fetch that completed before the kill
// is never sent again; one in flight at the kill has no recorded answer
// and is sent again by the replay (the workspace still sees one answer).
func TestShellExecReplayAfterCrash(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "n%d", hits.Add(1))
	}))
	defer srv.Close()
	n := 30
	if testing.Short() {
		n = 4
	}
	rng := mrand.New(mrand.NewPCG(17, 17))
	repeats, killed := 0, 0
	for i := range n {
		delay := time.Duration(rng.IntN(1500)) * time.Millisecond
		hits.Store(0)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			rep, k := execCrashOnce(t, srv.URL, delay, &hits)
			if rep {
				repeats++
			}
			if k {
				killed++
			}
		})
	}
	t.Logf("%d runs: %d killed before their end (the others had finished), %d of them during the fetch (sent again on replay)", n, killed, repeats)
}

var (
	sLine = regexp.MustCompile(`^s=\d+,\d+$`)
	rLine = regexp.MustCompile(`^r=n\d$`)
)

func execCrashOnce(t *testing.T, srvURL string, delay time.Duration, hits *atomic.Int64) (repeated, killed bool) {
	db := filepath.Join(t.TempDir(), "w.db")
	cmd := childproc.Start(t, "NOOK_SHELL_CHILD=exec", "NOOK_SHELL_DB="+db, "NOOK_SHELL_URL="+srvURL)
	time.Sleep(delay)
	cmd.Process.Signal(syscall.SIGKILL)
	killed = cmd.Wait() != nil

	u, _ := url.Parse(srvURL)
	ws, err := execWorkspace(db, u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	h, err := ws.Runtime().GetExec(ctx, "s", runtime.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != runtime.StatusCompleted {
		t.Fatalf("killed after %v: status %s: %s\n%s", delay, res.Status, res.Error, res.Stderr)
	}
	lines := strings.Split(strings.TrimSuffix(string(res.Stdout), "\n"), "\n")
	if len(lines) != 9 || !sLine.MatchString(lines[0]) || !rLine.MatchString(lines[1]) || lines[2] != "node ran" ||
		lines[3] != "slow node" || lines[4] != "again "+lines[0]+" "+lines[1] || lines[5] != "start" ||
		lines[6] != "curl "+lines[1][2:] || lines[7] != "node "+lines[0][2:] || lines[8] != "end" {
		t.Fatalf("killed after %v: stdout:\n%s\nstderr:\n%s", delay, res.Stdout, res.Stderr)
	}
	log, err := ws.FS().ReadFile(ctx, "/workspace/log.txt")
	if want := strings.Join(lines[5:], "\n") + "\n"; err != nil || string(log) != want {
		t.Errorf("killed after %v: log %q %v, want %q", delay, log, err, want)
	}
	got := hits.Load()
	if got < 1 || got > 2 || got == 2 && lines[1] != "r=n2" {
		t.Errorf("killed after %v: the server saw %d requests, the script %s", delay, got, lines[1])
	}
	return got == 2, killed
}
