package worker_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/worker"
)

// BenchmarkTrivialJSTiers runs a trivial JavaScript exec alternately in
// process and in the process tier (warm pool), in the same run, and
// reports each tier's median and their ratio.
func BenchmarkTrivialJSTiers(b *testing.B) {
	ctx := context.Background()
	pool, err := worker.New(worker.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	open := func(iso runtime.Isolator) *nook.Workspace {
		opts := []nook.Option{nook.WithBackends(backends()...)}
		if iso != nil {
			opts = append(opts, nook.WithIsolation(iso))
		}
		ws, err := nook.OpenMemory(ctx, opts...)
		if err != nil {
			b.Fatal(err)
		}
		return ws
	}
	in, proc := open(nil), open(pool)
	defer in.Close()
	defer proc.Close()
	const src = `export default (x) => x.n + 1`
	run := func(ws *nook.Workspace) time.Duration {
		t := time.Now()
		h, err := ws.Runtime().Exec(ctx, src, runtime.ExecOptions{Input: map[string]int{"n": 1}})
		if err != nil {
			b.Fatal(err)
		}
		res, err := h.Result(ctx)
		if err != nil || res.Status != runtime.StatusCompleted {
			b.Fatalf("%v %v", res, err)
		}
		d := time.Since(t)
		ws.Runtime().DisposeExec(ctx, h.ID)
		return d
	}
	// Warm both: compile caches, the pool.
	for range 20 {
		run(in)
		run(proc)
	}
	var ti, tp []time.Duration
	b.ResetTimer()
	for range b.N {
		ti = append(ti, run(in))
		tp = append(tp, run(proc))
	}
	b.StopTimer()
	p50 := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds())
	}
	pi, pp := p50(ti), p50(tp)
	b.ReportMetric(pi, "in-process-p50-µs")
	b.ReportMetric(pp, "process-p50-µs")
	b.ReportMetric(pp/pi, "process/in-process")
}

// BenchmarkWorkerStart starts a worker (to its hello, sandbox in place)
// and reports the resident memory of an idle worker.
func BenchmarkWorkerStart(b *testing.B) {
	pool, err := worker.New(worker.Options{Size: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	var rss int64
	for range b.N {
		pid, kill, err := pool.Spawn(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		time.Sleep(20 * time.Millisecond)
		rss, _, _ = worker.Usage(pid)
		kill()
		b.StartTimer()
	}
	b.ReportMetric(float64(rss)/(1<<20), "idle-RSS-MiB")
}

// BenchmarkHostCallTiers makes 1,000 host calls (fs stat) per run, in
// process and in the process tier, and reports the cost of one call in
// each.
func BenchmarkHostCallTiers(b *testing.B) {
	ctx := context.Background()
	pool, err := worker.New(worker.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	open := func(iso runtime.Isolator) *nook.Workspace {
		opts := []nook.Option{nook.WithBackends(probe{})}
		if iso != nil {
			opts = append(opts, nook.WithIsolation(iso))
		}
		ws, err := nook.OpenMemory(ctx, opts...)
		if err != nil {
			b.Fatal(err)
		}
		return ws
	}
	in, proc := open(nil), open(pool)
	defer in.Close()
	defer proc.Close()
	run := func(ws *nook.Workspace) time.Duration {
		t := time.Now()
		h, err := ws.Runtime().Exec(ctx, "calls", runtime.ExecOptions{})
		if err != nil {
			b.Fatal(err)
		}
		res, err := h.Result(ctx)
		if err != nil || res.Status != runtime.StatusCompleted {
			b.Fatalf("%v %v", res, err)
		}
		return time.Since(t)
	}
	run(in)
	run(proc)
	var ti, tp time.Duration
	b.ResetTimer()
	for range b.N {
		ti += run(in)
		tp += run(proc)
	}
	b.StopTimer()
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) / 1000 / 1000 }
	b.ReportMetric(per(ti), "in-process-µs/call")
	b.ReportMetric(per(tp), "process-µs/call")
	b.ReportMetric(float64(tp)/float64(ti), "process/in-process")
}
