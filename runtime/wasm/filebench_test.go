//go:build unix

package wasm_test

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/nookdev/nook/runtime"
)

// BenchmarkFileHeavy runs the probe's file-heavy guest (small files written,
// then read) on a workspace and, in the same process, on raw wazero over a
// host directory, and reports the ratio of the two. Each iteration writes
// to a fresh directory.
//
//	go test ./runtime/wasm -run '^$' -bench FileHeavy -benchtime 3x
func BenchmarkFileHeavy(b *testing.B) {
	const files = 2000
	ctx := context.Background()
	ws := openWS(b)
	raw := newRawWazero(b, probe(b))
	hostDir := b.TempDir()
	// Compiled before the clock starts: a hello-world run of each.
	ok(b, run(b, ws, runtime.ExecOptions{}, "hello"))
	raw.run(b, ctx, hostDir, "hello")
	var nookT, rawT, nookCPU, rawCPU time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		dir := "/workspace/fh" + strconv.Itoa(i)
		t0, c0 := time.Now(), cpuTime()
		ok(b, run(b, ws, runtime.ExecOptions{Timeout: 5 * time.Minute}, "files", strconv.Itoa(files), dir))
		nookT, nookCPU = nookT+time.Since(t0), nookCPU+cpuTime()-c0
		t0, c0 = time.Now(), cpuTime()
		raw.run(b, ctx, hostDir, "files", strconv.Itoa(files), dir)
		rawT, rawCPU = rawT+time.Since(t0), rawCPU+cpuTime()-c0
	}
	n := float64(b.N)
	b.ReportMetric(float64(nookT.Milliseconds())/n, "nook-ms/op")
	b.ReportMetric(float64(rawT.Milliseconds())/n, "hostdir-ms/op")
	b.ReportMetric(float64(nookT)/float64(rawT), "ratio")
	// On a loaded machine wall time is mostly waiting for a CPU: the
	// process's CPU time (user and system) is the steadier comparison.
	b.ReportMetric(float64(nookCPU.Milliseconds())/n, "nook-cpu-ms/op")
	b.ReportMetric(float64(rawCPU.Milliseconds())/n, "hostdir-cpu-ms/op")
	b.ReportMetric(float64(nookCPU)/float64(rawCPU), "cpu-ratio")
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rawWazero is plain wazero with its own WASI over a host directory, the
// baseline of the benchmarks.
type rawWazero struct {
	r  wazero.Runtime
	cm wazero.CompiledModule
}

func newRawWazero(t testing.TB, code []byte) *rawWazero {
	ctx := context.Background()
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	t.Cleanup(func() { r.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	// The probe imports nook's host functions; raw wazero gets stubs.
	stub := api.GoModuleFunc(func(_ context.Context, _ api.Module, s []uint64) { s[0] = 58 })
	i32 := api.ValueTypeI32
	hb := r.NewHostModuleBuilder("nook")
	for name, n := range map[string]int{"call": 7, "result": 3, "interrupt": 5} {
		hb.NewFunctionBuilder().WithGoModuleFunction(stub, slices.Repeat([]api.ValueType{i32}, n), []api.ValueType{i32}).Export(name)
	}
	if _, err := hb.Instantiate(ctx); err != nil {
		t.Fatal(err)
	}
	cm, err := r.CompileModule(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	return &rawWazero{r: r, cm: cm}
}

// run runs the module with args, hostDir mounted at /workspace.
func (w *rawWazero) run(t testing.TB, ctx context.Context, hostDir string, args ...string) string {
	var out bytes.Buffer
	cfg := wazero.NewModuleConfig().WithName("").WithArgs(append([]string{"probe"}, args...)...).
		WithStdout(&out).WithStderr(io.Discard).
		WithFSConfig(wazero.NewFSConfig().WithDirMount(filepath.Clean(hostDir), "/workspace"))
	m, err := w.r.InstantiateModule(ctx, w.cm, cfg)
	if err != nil {
		t.Fatalf("raw run %v: %v", args, err)
	}
	m.Close(ctx)
	return out.String()
}
