package js_test

import (
	"context"
	"fmt"
	"github.com/nookdev/nook/internal/childproc"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
)

// TestMain lets the test binary act as a process running a replayable
// module (see TestReplayAfterCrash), or one of crashCases.
func TestMain(m *testing.M) {
	if name := os.Getenv("NOOK_JS_CRASH"); name != "" {
		crashChild(name, os.Getenv("NOOK_JS_OUT"))
		os.Exit(0)
	}
	if db := os.Getenv("NOOK_JS_CHILDPROC_DB"); db != "" {
		childProcReplayChild(db)
		os.Exit(0)
	}
	if os.Getenv("NOOK_JS_CHILD") != "" {
		ctx := context.Background()
		ws := openReplayWS(os.Getenv("NOOK_JS_DB"), os.Getenv("NOOK_JS_SIDE"))
		h, err := ws.Runtime().Exec(ctx, replayModule, runtime.ExecOptions{ID: "r", OnInterrupt: runtime.PolicyReplay})
		if err != nil {
			panic(err)
		}
		childproc.Ready()
		h.Wait(ctx)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func openReplayWS(db, side string) *nook.Workspace {
	ws, err := nook.Open(context.Background(), db, nook.WithBackends(js.New(js.Options{})),
		nook.WithModules(map[string]runtime.Module{"ws:side": {
			"hit": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
				f, err := os.OpenFile(side, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
				if err != nil {
					return nil, err
				}
				defer f.Close()
				fmt.Fprintf(f, "%v %s\n", args[0], c.CallID)
				return map[string]any{"call": c.CallID}, nil
			},
		}}))
	if err != nil {
		panic(err)
	}
	return ws
}

// The module races a timer against a host call, reads the clock and
// randomness, and waits long enough to be killed in the middle.
const replayModule = `
import fs from "node:fs/promises";
import { hit } from "ws:side";
export default async function () {
  const t0 = Date.now();
  const r = Math.random();
  console.log("clock", t0, r);
  await fs.appendFile("log", "a");
  const [x, y] = await Promise.all([hit("p"), fs.readFile("log", "utf8")]);
  console.log("first", x.call, y);
  const order = [];
  await Promise.all([
    new Promise((res) => setTimeout(() => { order.push("timer"); res(); }, 5)),
    hit("q").then(() => order.push("call")),
  ]);
  console.log("raced", order.join(","));
  await new Promise((res) => setTimeout(res, 600));
  await fs.appendFile("log", "b");
  const id = crypto.randomUUID();
  console.log("done", await fs.readFile("log", "utf8"));
  return { t0, r, order, uuid: id.length };
}`

// A replay-policy JavaScript run SIGKILLed while it waits on a timer is
// resumed by the next process: the recorded calls are answered from the
// journal (the append and the host-module calls happen once), Date.now,
// Math.random and the order in which the timer and the call completed come
// out the same, output is printed once, and the run finishes live.
func TestReplayAfterCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	db, side := filepath.Join(dir, "w.db"), filepath.Join(dir, "side")
	cmd := childproc.Start(t, "NOOK_JS_CHILD=1", "NOOK_JS_DB="+db, "NOOK_JS_SIDE="+side)
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	ws := openReplayWS(db, side)
	defer ws.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	h, err := ws.Runtime().GetExec(ctx, "r", runtime.GetOptions{})
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
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "clock ") || lines[1] != "first r/2 a" ||
		!strings.HasPrefix(lines[2], "raced ") || lines[3] != "done ab" {
		t.Fatalf("stdout:\n%s", res.Stdout)
	}
	var t0, r float64
	fmt.Sscanf(lines[0], "clock %v %v", &t0, &r)
	want := fmt.Sprintf(`{"t0":%v,"r":%v,"order":[%s],"uuid":36}`, int64(t0), r,
		`"`+strings.ReplaceAll(strings.TrimPrefix(lines[2], "raced "), ",", `","`)+`"`)
	if string(res.Value) != want {
		t.Errorf("value %s\nwant  %s", res.Value, want)
	}
	log, _ := ws.FS().ReadFile(ctx, "/workspace/log")
	if string(log) != "ab" {
		t.Errorf("log %q, want ab", log)
	}
	b, _ := os.ReadFile(side)
	if got := string(b); strings.Count(got, "p r/") != 1 || strings.Count(got, "q r/") != 1 {
		t.Errorf("host module calls:\n%s", got)
	}
}

// A finished replay-policy module verifies against its journal: timers
// racing host calls, the clock, randomness and fs calls replay exactly.
func TestVerifyModule(t *testing.T) {
	dir := t.TempDir()
	ws, err := nook.Open(context.Background(), filepath.Join(dir, "w.db"), nook.WithBackends(js.New(js.Options{})),
		nook.WithRuntime(runtime.Options{KeepJournal: true}), nook.WithModules(map[string]runtime.Module{"ws:side": {
			"hit": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
				time.Sleep(3 * time.Millisecond)
				return map[string]any{"call": c.CallID}, nil
			},
		}}))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ctx := context.Background()
	src := strings.Replace(replayModule, "setTimeout(res, 600)", "setTimeout(res, 10)", 1)
	h, err := ws.Runtime().Exec(ctx, src, runtime.ExecOptions{ID: "v", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Result(ctx)
	if err != nil || res.Status != runtime.StatusCompleted {
		t.Fatalf("%v %s %s", err, res.Status, res.Stderr)
	}
	for i := range 3 {
		if err := ws.Runtime().Verify(ctx, "v"); err != nil {
			t.Fatalf("verify %d: %v", i, err)
		}
	}
}
