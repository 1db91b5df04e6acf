package js_test

import (
	"context"
	"fmt"
	mrand "math/rand/v2"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/internal/childproc"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/shell"
)

// childProcModule appends a line per step through the shell, reads the
// count back through exec, streams a file through a Transform, pipes it
// through a spawned cat, and watches the files appear with fs.watch.
const childProcModule = `
import { execSync, exec, spawn } from "node:child_process";
import fs from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
const pexec = promisify(exec);
const N = 6;
fs.mkdirSync("w", { recursive: true });
const seen = new Set();
const watcher = fs.watch("w", (ev, name) => { if (name) seen.add(name); });
for (let i = 1; i <= N; i++) {
  execSync("echo step " + i + " >> log");
  const { stdout } = await pexec("wc -l < log");
  const up = new Transform({ transform(c, e, cb) { cb(null, String(c).toUpperCase()); } });
  await pipeline(Readable.from(["chunk " + i + "\n"]), up, fs.createWriteStream("w/s" + i));
  const c = spawn("cat", ["w/s" + i, "-"]);
  let out = "";
  c.stdout.on("data", (d) => { out += d; });
  c.stdin.end("tail " + i + "\n");
  await new Promise((r) => c.on("close", r));
  console.log("step " + i + " lines " + stdout.trim() + " " + out.replace(/\n/g, "|"));
  await new Promise((r) => setTimeout(r, 80));
}
while (seen.size < N) await new Promise((r) => setTimeout(r, 20));
watcher.close();
console.log("seen " + [...seen].sort().join(","));
console.log(fs.readFileSync("log", "utf8").replace(/\n/g, "|"));
`

func childProcWS(db string) (*nook.Workspace, error) {
	return nook.Open(context.Background(), db, nook.WithBackends(js.New(js.Options{}), shell.New(shell.Options{})))
}

// childProcReplayChild runs childProcModule under the replay policy in
// the child process, until the test kills it.
func childProcReplayChild(db string) {
	ctx := context.Background()
	ws, err := childProcWS(db)
	if err != nil {
		panic(err)
	}
	ws.FS().MkdirAll(ctx, "/workspace", 0)
	h, err := ws.Runtime().Exec(ctx, childProcModule, runtime.ExecOptions{ID: "cp", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		panic(err)
	}
	childproc.Ready()
	h.Wait(ctx)
}

// A replay-policy program using child_process, streams and fs.watch,
// SIGKILLed at random moments (20 times; 4 in short mode), is resumed by
// the next process: every command it ran happened exactly once (the log
// has each line once), and its output is printed once and right.
func TestChildProcessReplayAfterCrash(t *testing.T) {
	n := 20
	if testing.Short() {
		n = 4
	}
	rng := mrand.New(mrand.NewPCG(13, 13))
	for i := range n {
		delay := time.Duration(rng.IntN(900)) * time.Millisecond
		t.Run(fmt.Sprint(i), func(t *testing.T) { childProcCrashOnce(t, delay) })
	}
}

func childProcCrashOnce(t *testing.T, delay time.Duration) {
	db := filepath.Join(t.TempDir(), "w.db")
	cmd := childproc.Start(t, "NOOK_JS_CHILDPROC_DB="+db)
	time.Sleep(delay)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	ws, err := childProcWS(db)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	before, _ := ws.FS().ReadFile(ctx, "/workspace/log")
	t.Logf("killed after %v with %d steps done", delay, strings.Count(string(before), "\n"))
	h, err := ws.Runtime().GetExec(ctx, "cp", runtime.GetOptions{})
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
	var want strings.Builder
	var log strings.Builder
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&want, "step %d lines %d CHUNK %d|tail %d|\n", i, i, i, i)
		fmt.Fprintf(&log, "step %d|", i)
	}
	want.WriteString("seen s1,s2,s3,s4,s5,s6\n" + log.String() + "\n")
	if got := string(res.Stdout); got != want.String() {
		t.Errorf("killed after %v: stdout:\n%s\nwant:\n%s\nstderr:\n%s", delay, got, want.String(), res.Stderr)
	}
	b, err := ws.FS().ReadFile(ctx, "/workspace/log")
	if want := strings.ReplaceAll(log.String(), "|", "\n"); err != nil || string(b) != want {
		t.Errorf("killed after %v: log %q (%v), want %q", delay, b, err, want)
	}
}
