// Command jsbench measures the JavaScript backend end to end through the
// runtime (Exec → Result, output stored in the workspace database) and
// prints one line per figure, "NAME key=value ...". conformance/bench/js.sh
// runs it next to a Node.js baseline and prints the ratios.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/worker"
)

func main() {
	worker.Main(js.Builder)
	dir := flag.String("dir", os.TempDir(), "scratch directory for the workspace file")
	n := flag.Int("n", 2000, "runs per figure")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the trivial figure to this file")
	flag.Parse()
	ctx := context.Background()
	db := filepath.Join(*dir, "jsbench.db")
	os.Remove(db)
	ws, err := nook.Open(ctx, db, nook.WithBackends(js.New(js.Options{})),
		nook.WithRuntime(runtime.Options{MaxRetained: 1000}))
	if err != nil {
		log.Fatal(err)
	}
	defer ws.Close()
	rt := ws.Runtime()

	exec := func(src string, input any) *runtime.Result {
		h, err := rt.Exec(ctx, src, runtime.ExecOptions{Input: input})
		if err != nil {
			log.Fatal(err)
		}
		res, err := h.Result(ctx)
		if err != nil {
			log.Fatal(err)
		}
		if res.Status != runtime.StatusCompleted {
			log.Fatalf("run %s: %s\n%s", res.ID, res.Status, res.Stderr)
		}
		return res
	}

	// Trivial module, transform cached after the first run.
	trivial := "export default function (x) { console.log('hi'); return x.n + 1 }"
	exec(trivial, map[string]int{"n": 1})
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			log.Fatal(err)
		}
		pprof.StartCPUProfile(f)
	}
	inProc := stats(*n, func(i int) { exec(trivial, map[string]int{"n": i}) })
	fmt.Printf("trivial_exec %s\n", inProc)
	if *prof != "" {
		pprof.StopCPUProfile()
	}

	// The same in the process tier: a warm pool of worker processes.
	pool, err := worker.New(worker.Options{})
	if err != nil {
		log.Fatal(err)
	}
	pws, err := nook.Open(ctx, db+"-process", nook.WithBackends(js.New(js.Options{})),
		nook.WithRuntime(runtime.Options{MaxRetained: 1000}), nook.WithIsolation(pool))
	if err != nil {
		log.Fatal(err)
	}
	prt := rt
	rt = pws.Runtime()
	for i := range 50 {
		exec(trivial, map[string]int{"n": i})
	}
	fmt.Printf("trivial_exec_process %s\n", stats(*n, func(i int) { exec(trivial, map[string]int{"n": i}) }))
	pws.Close()
	pool.Close()
	rt = prt

	// Cold TypeScript: a different source every time defeats the cache.
	ts := "interface In { n: number }\nexport default async function (x: In): Promise<number> {\n" +
		"  const xs: number[] = [1, 2, 3].map((v) => v * x.n)\n  return xs.reduce((a, b) => a + b, %d)\n}\n"
	fmt.Printf("cold_ts_exec %s\n", stats(*n/4, func(i int) { exec(fmt.Sprintf(ts, i), map[string]int{"n": i}) }))

	// 1,000 fs.writeFile of 1 KiB each.
	writes := `import fs from "node:fs/promises";
export default async function () {
  await fs.mkdir("out", { recursive: true });
  const data = "x".repeat(1024);
  for (let i = 0; i < 1000; i++) await fs.writeFile("out/f" + i + ".txt", data);
  return 1000;
}`
	exec(writes, nil)
	const wn = 10
	start := time.Now()
	for range wn {
		exec(writes, nil)
	}
	el := time.Since(start)
	fmt.Printf("writes_1000x1KiB runs_per_sec=%.2f writes_per_sec=%.0f\n",
		float64(wn)/el.Seconds(), float64(wn*1000)/el.Seconds())
}

// stats runs f n times and returns p50/p90 in microseconds.
func stats(n int, f func(i int)) string {
	d := make([]time.Duration, n)
	for i := range n {
		t := time.Now()
		f(i)
		d[i] = time.Since(t)
	}
	slices.Sort(d)
	us := func(x time.Duration) float64 { return float64(x.Nanoseconds()) / 1e3 }
	return fmt.Sprintf("n=%d p50_us=%.1f p90_us=%.1f", n, us(d[n/2]), us(d[n*9/10]))
}
