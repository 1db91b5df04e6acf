// Command wasmbench measures nook's wasm backend against raw wazero over a
// host directory: a hello-world guest run (compiled once), a file-heavy
// guest (10,000 small file writes and reads), the compile cache, and the CPU
// cost of interruptibility on a CPU-bound guest. Run it through
// conformance/bench/wasm.sh.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/wasm"
	"github.com/nookdev/nook/vfs"
)

var (
	rounds = flag.Int("rounds", 30, "hello-world rounds")
	files  = flag.Int("files", 10000, "files of the file-heavy guest")
	spin   = flag.Int("spin", 100_000_000, "iterations of the CPU-bound guest")
	root   = flag.String("root", ".", "the repository root")
	diskIn = flag.String("diskhit", "", "internal: time one compile from the cache directory DIR of a module file")
)

func main() {
	flag.Parse()
	ctx := context.Background()
	if *diskIn != "" {
		diskHit(ctx, *diskIn, flag.Arg(0))
		return
	}
	tmp, err := os.MkdirTemp("", "wasmbench")
	check(err)
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "probe.wasm")
	cmd := exec.Command("go", "build", "-o", bin, "./guest/wasm/probe")
	cmd.Dir = *root
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	cmd.Stderr = os.Stderr
	check(cmd.Run())
	code, err := os.ReadFile(bin)
	check(err)
	fmt.Printf("guest: guest/wasm/probe, %d bytes\n\n", len(code))

	// nook: a workspace with the metered and the checked backends.
	metered := wasm.New(wasm.Options{})
	checked := wasm.New(wasm.Options{ID: "checked", Interrupt: wasm.InterruptChecked})
	ws, err := nook.Open(ctx, filepath.Join(tmp, "w.db"), nook.WithBackends(metered, checked))
	check(err)
	defer ws.Close()
	check(ws.FS().WriteFile(ctx, "/workspace/probe.wasm", code, &vfs.WriteOptions{MkdirAll: true}))

	// raw wazero: one runtime, the module compiled once, a host directory
	// mounted where the guest sees /workspace.
	hostDir := filepath.Join(tmp, "host")
	check(os.MkdirAll(hostDir, 0o755))
	raw := newRaw(ctx, code, false)
	rawChecked := newRaw(ctx, code, true)

	nookRun := func(backend string, args ...string) time.Duration {
		t0 := time.Now()
		h, err := ws.Runtime().Exec(ctx, "/workspace/probe.wasm", runtime.ExecOptions{Backend: backend, Args: args, Timeout: 10 * time.Minute})
		check(err)
		res, err := h.Result(ctx)
		check(err)
		if res.Status != runtime.StatusCompleted {
			fmt.Fprintf(os.Stderr, "nook run %v: %s %s %s\n", args, res.Status, res.Error, res.Stderr)
			os.Exit(1)
		}
		return time.Since(t0)
	}

	// 1. hello world.
	nookRun("wasm", "hello")
	raw.run(ctx, hostDir, "hello")
	var tn, tr []time.Duration
	for i := 0; i < *rounds; i++ {
		tn = append(tn, nookRun("wasm", "hello"))
		tr = append(tr, raw.run(ctx, hostDir, "hello"))
	}
	mn, mr := median(tn), median(tr)
	fmt.Printf("hello world (median of %d, compiled once)\n  nook Exec+Result:            %8.2f ms\n  raw wazero, host directory:  %8.2f ms\n  ratio:                       %8.2fx  (target <= 1.1)\n\n",
		*rounds, ms(mn), ms(mr), float64(mn)/float64(mr))

	// 2. file-heavy.
	fh := nookRun("wasm", "files", fmt.Sprint(*files), "/workspace/fh")
	rh := raw.run(ctx, hostDir, "files", fmt.Sprint(*files), "/workspace/fh")
	fmt.Printf("file-heavy guest (%d small files written, then read)\n  nook (workspace):            %8.0f ms\n  raw wazero, host directory:  %8.0f ms\n  ratio:                       %8.2fx  (target <= 1.5)\n\n",
		*files, ms(fh), ms(rh), float64(fh)/float64(rh))

	// 3. compile cache.
	cacheDir := filepath.Join(tmp, "cache")
	fresh := wasm.New(wasm.Options{CacheDir: cacheDir})
	t0 := time.Now()
	_, err = fresh.Prepare(ctx, ws.FS(), &runtime.Request{Source: "/workspace/probe.wasm", Cwd: "/workspace"})
	check(err)
	cold := time.Since(t0)
	other := wasm.New(wasm.Options{CacheDir: cacheDir})
	t0 = time.Now()
	_, err = other.Prepare(ctx, ws.FS(), &runtime.Request{Source: "/workspace/probe.wasm", Cwd: "/workspace"})
	check(err)
	memHit := time.Since(t0)
	t0 = time.Now()
	_, err = other.Prepare(ctx, ws.FS(), &runtime.Request{Source: "/workspace/probe.wasm", Cwd: "/workspace"})
	check(err)
	backendHit := time.Since(t0)
	self, err := os.Executable()
	check(err)
	out, err := exec.Command(self, "-diskhit", cacheDir, bin).Output()
	check(err)
	fmt.Printf("compile (Prepare of the guest, metering included)\n  cold, filling a cache directory:              %8.1f ms\n  another backend, same process (memory hit):   %8.1f ms\n  same backend again (its compiled module):     %8.2f ms\n  new process, cache directory hit:             %s\n",
		ms(cold), ms(memHit), ms(backendHit), out)

	// 4. CPU cost of interruptibility.
	n := fmt.Sprint(*spin)
	rawT := raw.run(ctx, hostDir, "spin", n)
	rawC := rawChecked.run(ctx, hostDir, "spin", n)
	nookRun("checked", "hello")
	met := nookRun("wasm", "spin", n)
	chk := nookRun("checked", "spin", n)
	fmt.Printf("CPU-bound guest (spin %s: a byte loop with sha256, then an LCG loop)\n", n)
	fmt.Printf("  raw wazero, not interruptible:              %8.0f ms  1.00x\n", ms(rawT))
	fmt.Printf("  raw wazero, WithCloseOnContextDone:         %8.0f ms  %.2fx\n", ms(rawC), float64(rawC)/float64(rawT))
	fmt.Printf("  nook, metered (default):                    %8.0f ms  %.2fx\n", ms(met), float64(met)/float64(rawT))
	fmt.Printf("  nook, InterruptChecked:                     %8.0f ms  %.2fx\n", ms(chk), float64(chk)/float64(rawT))
}

type rawWazero struct {
	r  wazero.Runtime
	cm wazero.CompiledModule
}

func newRaw(ctx context.Context, code []byte, closeOnDone bool) *rawWazero {
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithCloseOnContextDone(closeOnDone))
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	// The probe imports nook's host functions; raw wazero gets stubs.
	stub := api.GoModuleFunc(func(_ context.Context, _ api.Module, s []uint64) { s[0] = 58 })
	i32 := api.ValueTypeI32
	b := r.NewHostModuleBuilder("nook")
	for name, n := range map[string]int{"call": 7, "result": 3, "interrupt": 5} {
		b.NewFunctionBuilder().WithGoModuleFunction(stub, slices.Repeat([]api.ValueType{i32}, n), []api.ValueType{i32}).Export(name)
	}
	_, err := b.Instantiate(ctx)
	check(err)
	cm, err := r.CompileModule(ctx, code)
	check(err)
	return &rawWazero{r: r, cm: cm}
}

func (w *rawWazero) run(ctx context.Context, hostDir string, args ...string) time.Duration {
	t0 := time.Now()
	var out bytes.Buffer
	cfg := wazero.NewModuleConfig().WithName("").WithArgs(append([]string{"probe"}, args...)...).
		WithStdout(&out).WithStderr(io.Discard).
		WithFSConfig(wazero.NewFSConfig().WithDirMount(hostDir, "/workspace"))
	m, err := w.r.InstantiateModule(ctx, w.cm, cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "raw run %v: %v\n", args, err)
		os.Exit(1)
	}
	m.Close(ctx)
	return time.Since(t0)
}

func diskHit(ctx context.Context, dir, file string) {
	code, err := os.ReadFile(file)
	check(err)
	ws, err := nook.OpenMemory(ctx)
	check(err)
	check(ws.FS().WriteFile(ctx, "/workspace/probe.wasm", code, &vfs.WriteOptions{MkdirAll: true}))
	b := wasm.New(wasm.Options{CacheDir: dir})
	t0 := time.Now()
	_, err = b.Prepare(ctx, ws.FS(), &runtime.Request{Source: "/workspace/probe.wasm", Cwd: "/workspace"})
	check(err)
	fmt.Printf("%8.1f ms", ms(time.Since(t0)))
}

func median(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
