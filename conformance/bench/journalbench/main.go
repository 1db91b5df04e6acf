// Command journalbench measures what journaling costs a JavaScript run and
// what replaying one saves, and prints one line per figure, "NAME
// key=value ...". conformance/bench/journal.sh builds and runs it.
//
//	journal_overhead  a run doing 1,000 small fs.writeFile under the replay
//	                  policy (each write and its journal record commit in
//	                  one transaction) vs the same run under the fail policy
//	                  (nothing journaled): p50 of Exec → Result, ratio
//	replay_vs_live    the same 1,000 writes, then a host-module call that
//	                  SIGKILLs the process: the next process resumes the run,
//	                  replays the writes from the journal and reaches the
//	                  call again; ratio = time from GetExec to that call in
//	                  the resuming process / time from Exec to that call in
//	                  the live one
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
)

const writes = `import fs from "node:fs/promises";
export default async function () {
  await fs.mkdir("out", { recursive: true });
  const data = "x".repeat(64);
  for (let i = 0; i < 1000; i++) await fs.writeFile("out/f" + i + ".txt", data);
  return 1000;
}`

// writesThenMark is writes followed by ws:bench/mark, which the child
// process answers by dying and the resuming process by noting the time.
const writesThenMark = `import fs from "node:fs/promises";
import { mark } from "ws:bench";
export default async function () {
  await fs.mkdir("out", { recursive: true });
  const data = "x".repeat(64);
  for (let i = 0; i < 1000; i++) await fs.writeFile("out/f" + i + ".txt", data);
  await mark();
  return 1000;
}`

func main() {
	dir := flag.String("dir", os.TempDir(), "scratch directory for the workspace files")
	n := flag.Int("n", 20, "runs per policy for journal_overhead")
	reps := flag.Int("reps", 5, "crashes and replays for replay_vs_live")
	child := flag.String("child", "", "internal: run writesThenMark on this database and die at mark")
	flag.Parse()
	if *child != "" {
		runChild(*child)
		return
	}
	overhead(*dir, *n)
	replayVsLive(*dir, *reps)
}

func open(db string, mark runtime.Func) *nook.Workspace {
	mods := map[string]runtime.Module{"ws:bench": {"mark": mark}}
	ws, err := nook.Open(context.Background(), db, nook.WithBackends(js.New(js.Options{})), nook.WithModules(mods),
		nook.WithRuntime(runtime.Options{MaxRetained: 1000}))
	if err != nil {
		log.Fatal(err)
	}
	return ws
}

func noMark(context.Context, *runtime.CallContext, []any) (any, error) { return nil, nil }

// overhead times writes under the replay and the fail policy, alternately.
func overhead(dir string, n int) {
	ctx := context.Background()
	db := filepath.Join(dir, "overhead.db")
	os.Remove(db)
	ws := open(db, noMark)
	defer ws.Close()
	rt := ws.Runtime()
	run := func(p runtime.Policy) time.Duration {
		start := time.Now()
		h, err := rt.Exec(ctx, writes, runtime.ExecOptions{OnInterrupt: p})
		if err != nil {
			log.Fatal(err)
		}
		res, err := h.Result(ctx)
		if err != nil {
			log.Fatal(err)
		}
		if res.Status != runtime.StatusCompleted {
			log.Fatalf("%s run: %s %s", p, res.Status, res.Error)
		}
		d := time.Since(start)
		rt.DisposeExec(ctx, h.ID)
		return d
	}
	run(runtime.PolicyFail) // warm the transform cache
	run(runtime.PolicyReplay)
	var journaled, plain []time.Duration
	for range n {
		plain = append(plain, run(runtime.PolicyFail))
		journaled = append(journaled, run(runtime.PolicyReplay))
	}
	j, p := p50(journaled), p50(plain)
	fmt.Printf("journal_overhead ratio=%.2f replay_p50_ms=%.1f fail_p50_ms=%.1f writes=1000 runs=%d\n",
		float64(j)/float64(p), ms(j), ms(p), n)
}

// replayVsLive crashes a child at mark and times the replay up to mark.
func replayVsLive(dir string, reps int) {
	var live, replay []time.Duration
	for i := range reps {
		db := filepath.Join(dir, fmt.Sprintf("replay%d.db", i))
		os.Remove(db)
		side := db + ".live"
		cmd := exec.Command(os.Args[0], "-child", db)
		cmd.Stderr = os.Stderr
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			log.Fatalf("child: %v", err)
		}
		b, err := os.ReadFile(side)
		if err != nil {
			log.Fatal(err)
		}
		ns, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		live = append(live, time.Duration(ns))

		var start time.Time
		reached := make(chan time.Duration, 1)
		ws := open(db, func(context.Context, *runtime.CallContext, []any) (any, error) {
			reached <- time.Since(start)
			return nil, nil
		})
		ctx := context.Background()
		start = time.Now()
		h, err := ws.Runtime().GetExec(ctx, "bench", runtime.GetOptions{})
		if err != nil {
			log.Fatal(err)
		}
		res, err := h.Result(ctx)
		if err != nil {
			log.Fatal(err)
		}
		if res.Status != runtime.StatusCompleted || string(res.Value) != "1000" {
			log.Fatalf("resumed run: %s %s %s", res.Status, res.Error, res.Value)
		}
		replay = append(replay, <-reached)
		ws.Close()
	}
	l, r := p50(live), p50(replay)
	fmt.Printf("replay_vs_live ratio=%.2f replay_p50_ms=%.1f live_p50_ms=%.1f writes=1000 reps=%d\n",
		float64(r)/float64(l), ms(r), ms(l), reps)
}

// runChild runs writesThenMark under the replay policy and dies at mark,
// after writing how long the run took to get there.
func runChild(db string) {
	var start time.Time
	ws := open(db, func(context.Context, *runtime.CallContext, []any) (any, error) {
		d := time.Since(start)
		if err := os.WriteFile(db+".live", []byte(strconv.FormatInt(int64(d), 10)), 0o644); err != nil {
			log.Fatal(err)
		}
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	})
	ctx := context.Background()
	// Warm the process up (goja, esbuild, SQLite) as the resuming process
	// is, by the runs of overhead: time only the run itself.
	for range 3 {
		h, err := ws.Runtime().Exec(ctx, writes, runtime.ExecOptions{})
		if err != nil {
			log.Fatal(err)
		}
		h.Wait(ctx)
		ws.Runtime().DisposeExec(ctx, h.ID)
	}
	start = time.Now()
	h, err := ws.Runtime().Exec(ctx, writesThenMark, runtime.ExecOptions{ID: "bench", OnInterrupt: runtime.PolicyReplay})
	if err != nil {
		log.Fatal(err)
	}
	h.Wait(ctx)
	log.Fatal("the run ended before mark")
}

func p50(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
