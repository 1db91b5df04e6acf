package shell_test

import (
	"context"
	"fmt"
	"github.com/nookdev/nook/internal/childproc"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/shell"
)

// TestMain lets the test binary act as a process running a replayable
// script (see TestShellReplayAfterCrash).
func TestMain(m *testing.M) {
	if os.Getenv("NOOK_SHELL_CHILD") == "exec" {
		replayExecChild()
	}
	if os.Getenv("NOOK_SHELL_CHILD") != "" {
		ctx := context.Background()
		ws, err := nook.Open(ctx, os.Getenv("NOOK_SHELL_DB"), nook.WithBackends(shell.New(shell.Options{})))
		if err != nil {
			panic(err)
		}
		h, err := ws.Runtime().Exec(ctx, replayScript, runtime.ExecOptions{ID: "s", OnInterrupt: runtime.PolicyReplay,
			Env: map[string]string{"LC_ALL": "C"}})
		if err != nil {
			panic(err)
		}
		childproc.Ready()
		h.Wait(ctx)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const replayScript = `echo one >> log.txt
n=$RANDOM
echo "n=$n"
printf 'b\na\nc\n' | sort | tee sorted.txt | wc -l
s=$(shuf -i 1-1000000 -n 3 | paste -sd,)
echo "s=$s"
cat sorted.txt | tr a-z A-Z > upper.txt
sleep 0.6
echo two >> log.txt
echo "again n=$n"
echo "again s=$s"
cat log.txt upper.txt`

// A replay-policy shell run SIGKILLed at random moments (50 times; 5 in
// short mode) is resumed by the next process each time: its appends happen
// once, $RANDOM and shuf's draws are the same, output is printed once.
func TestShellReplayAfterCrash(t *testing.T) {
	n := 50
	if testing.Short() {
		n = 5
	}
	rng := mrand.New(mrand.NewPCG(7, 7))
	for i := range n {
		// From before the first command to after the sleep.
		delay := time.Duration(rng.IntN(900)) * time.Millisecond
		t.Run(fmt.Sprint(i), func(t *testing.T) { shellCrashOnce(t, delay) })
	}
}

func shellCrashOnce(t *testing.T, delay time.Duration) {
	db := filepath.Join(t.TempDir(), "w.db")
	cmd := childproc.Start(t, "NOOK_SHELL_CHILD=1", "NOOK_SHELL_DB="+db)
	time.Sleep(delay)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	ws, err := nook.Open(context.Background(), db, nook.WithBackends(shell.New(shell.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
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
		t.Fatalf("status %s: %s\n%s", res.Status, res.Error, res.Stderr)
	}
	lines := strings.Split(strings.TrimSuffix(string(res.Stdout), "\n"), "\n")
	if len(lines) != 10 || lines[1] != "3" || lines[3] != "again "+lines[0] || lines[4] != "again "+lines[2] ||
		strings.Join(lines[5:], ",") != "one,two,A,B,C" {
		t.Errorf("killed after %v: stdout:\n%s", delay, res.Stdout)
	}
	log, err := ws.FS().ReadFile(ctx, "/workspace/log.txt")
	if err != nil || string(log) != "one\ntwo\n" {
		t.Errorf("killed after %v: log %q %v", delay, log, err)
	}
}
