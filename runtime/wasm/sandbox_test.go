package wasm_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/runtime/wasm"
	"github.com/nookdev/nook/vfs"
)

func TestArgsEnvStdinExit(t *testing.T) {
	ws := openWS(t)
	res := run(t, ws, runtime.ExecOptions{Env: map[string]string{"A": "1", "B": "two"}}, "env", "x", "y z")
	ok(t, res)
	want := "args=[\"x\" \"y z\"]\nenv=[\"A=1\" \"B=two\"]\ncwd=/workspace\n"
	if string(res.Stdout) != want {
		t.Fatalf("stdout %q, want %q", res.Stdout, want)
	}
	res = run(t, ws, runtime.ExecOptions{Stdin: []byte("from stdin")}, "stdin")
	ok(t, res)
	if string(res.Stdout) != "from stdin" {
		t.Fatalf("stdin: %q", res.Stdout)
	}
	res = run(t, ws, runtime.ExecOptions{}, "exit", "7")
	if res.Status != runtime.StatusFailed || res.ExitCode != 7 || !strings.Contains(string(res.Stderr), "exiting with 7") {
		t.Fatalf("exit: %+v", res)
	}
	if err := ws.FS().MkdirAll(context.Background(), "/workspace/sub", 0o755); err != nil {
		t.Fatal(err)
	}
	res = run(t, ws, runtime.ExecOptions{Cwd: "sub"}, "env")
	ok(t, res)
	if !strings.Contains(string(res.Stdout), "cwd=/workspace/sub") {
		t.Fatalf("cwd: %s", res.Stdout)
	}
}

func TestRelativeSourceAndRawBytes(t *testing.T) {
	ws := openWS(t)
	ok(t, runSource(t, ws, "probe.wasm", runtime.ExecOptions{}, "hello"))
	// A tiny hand-made WASI command: (func (export "_start")).
	tiny := "\x00asm\x01\x00\x00\x00" +
		"\x01\x04\x01\x60\x00\x00" + // type [] -> []
		"\x03\x02\x01\x00" + // func 0: type 0
		"\x05\x03\x01\x00\x01" + // memory 1 page
		"\x07\x0a\x01\x06_start\x00\x00" + // export _start
		"\x0a\x04\x01\x02\x00\x0b" // body: end
	ok(t, runSource(t, ws, tiny, runtime.ExecOptions{}))
}

func TestBadModulesFailExec(t *testing.T) {
	ws := openWS(t)
	ctx := context.Background()
	for name, src := range map[string]string{
		"garbage":   "\x00asm\x01\x00\x00\x00\xff\xff",
		"missing":   "/workspace/nope.wasm",
		"outside":   "/etc/passwd",
		"not wasm":  "probe.txt",
		"no start":  "\x00asm\x01\x00\x00\x00",
		"bad input": "",
	} {
		if name == "not wasm" {
			ws.FS().WriteFile(ctx, "/workspace/probe.txt", []byte("hello"), nil)
		}
		_, err := ws.Runtime().Exec(ctx, src, runtime.ExecOptions{Backend: "wasm"})
		if err == nil {
			t.Errorf("%s: exec succeeded", name)
		}
	}
	// An import the backend does not provide.
	imp := "\x00asm\x01\x00\x00\x00" +
		"\x01\x04\x01\x60\x00\x00" +
		"\x02\x0b\x01\x03env\x03bad\x00\x00" +
		"\x03\x02\x01\x00" +
		"\x07\x0a\x01\x06_start\x00\x01" +
		"\x0a\x04\x01\x02\x00\x0b"
	_, err := ws.Runtime().Exec(ctx, imp, runtime.ExecOptions{Backend: "wasm"})
	if err == nil || !strings.Contains(err.Error(), "env.bad") {
		t.Errorf("bad import: %v", err)
	}
}

func TestEscapesDenied(t *testing.T) {
	ws := openWS(t)
	res := run(t, ws, runtime.ExecOptions{}, "escape")
	ok(t, res)
	if strings.Contains(string(res.Stdout), "ESCAPED") || strings.Count(string(res.Stdout), "denied") != 5 {
		t.Fatalf("escape:\n%s", res.Stdout)
	}
}

func TestReadOnly(t *testing.T) {
	ro := wasm.New(wasm.Options{ID: "ro", Access: runtime.ReadOnly})
	ws := openWSB(t, []runtime.Backend{backend, ro})
	ctx := context.Background()
	ws.FS().WriteFile(ctx, "/workspace/keep.txt", []byte("keep"), nil)
	res := run(t, ws, runtime.ExecOptions{Backend: "ro"}, "cat", "/workspace/keep.txt")
	ok(t, res)
	res = run(t, ws, runtime.ExecOptions{Backend: "ro"}, "write", "/workspace/keep.txt", "")
	if res.Status != runtime.StatusFailed || !strings.Contains(strings.ToLower(string(res.Stderr)), "read-only") {
		t.Fatalf("write on read-only: %+v %s", res, res.Stderr)
	}
	b, _ := ws.FS().ReadFile(ctx, "/workspace/keep.txt")
	if string(b) != "keep" {
		t.Fatalf("read-only file truncated: %q", b)
	}
}

func TestInfiniteLoopTimesOut(t *testing.T) {
	for _, mode := range []wasm.Interrupt{wasm.InterruptMetered, wasm.InterruptChecked} {
		t.Run(fmt.Sprint(mode), func(t *testing.T) {
			b := backend
			if mode == wasm.InterruptChecked {
				b = wasm.New(wasm.Options{ID: "checked", Interrupt: wasm.InterruptChecked})
			}
			ws := openWSB(t, []runtime.Backend{b})
			ok(t, run(t, ws, runtime.ExecOptions{Backend: b.Info().ID}, "hello")) // compile first
			start := time.Now()
			// A collector running meanwhile must not wait for the guest:
			// collections go on completing while it loops. (A guest that
			// held the world would let at most one finish, at the end; a
			// bound on each collection's time would measure the machine's
			// load instead.)
			stop := make(chan struct{})
			var gcMax time.Duration
			gcs := 0
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					case <-time.After(20 * time.Millisecond):
					}
					t0 := time.Now()
					runGC()
					gcMax = max(gcMax, time.Since(t0))
					gcs++
				}
			}()
			res := run(t, ws, runtime.ExecOptions{Backend: b.Info().ID, Timeout: 500 * time.Millisecond}, "loop")
			close(stop)
			wg.Wait()
			if res.Status != runtime.StatusTimedOut {
				t.Fatalf("status %s: %+v", res.Status, res)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Fatalf("took %v", d)
			}
			if gcs < 2 {
				t.Fatalf("%d collections finished while the guest looped for 500 ms (the longest took %v)", gcs, gcMax)
			}
			t.Logf("%d collections while looping, the longest %v", gcs, gcMax)
		})
	}
}

func TestRecursionAndMemory(t *testing.T) {
	ws := openWS(t)
	res := run(t, ws, runtime.ExecOptions{Timeout: 20 * time.Second}, "recurse")
	if res.Status != runtime.StatusFailed {
		t.Fatalf("recurse: %s %s", res.Status, res.Stderr)
	}
	small := wasm.New(wasm.Options{ID: "small", MaxMemoryPages: 512})
	ws = openWSB(t, []runtime.Backend{small})
	res = run(t, ws, runtime.ExecOptions{Backend: "small", Timeout: 20 * time.Second}, "grow")
	if res.Status != runtime.StatusFailed || !strings.Contains(string(res.Stderr), "out of memory") {
		t.Fatalf("grow: %s %s", res.Status, res.Stderr)
	}
}

func TestOutputLimit(t *testing.T) {
	ws := openWS(t, nook.WithRuntime(runtime.Options{Limits: runtime.Limits{MaxOutputBytes: 1 << 20}}))
	res := run(t, ws, runtime.ExecOptions{Timeout: 20 * time.Second}, "print", "0")
	if res.Status != runtime.StatusFailed || !strings.Contains(res.Error, "MaxOutputBytes") {
		t.Fatalf("flood: %s %q", res.Status, res.Error)
	}
}

func TestHostModules(t *testing.T) {
	mods := map[string]runtime.Module{"ws:calc": {
		"add": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			a, _ := args[0].(float64)
			b, _ := args[1].(float64)
			return map[string]any{"sum": a + b}, nil
		},
		"big": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			return strings.Repeat("y", 10000), nil
		},
		"fail": func(ctx context.Context, c *runtime.CallContext, args []any) (any, error) {
			return nil, errors.New("no luck")
		},
	}}
	ws := openWS(t, nook.WithModules(mods))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ws:calc/add", "2", "3"}, `result {"sum":5}`},
		{[]string{"calc/big"}, `result "yyyy`},
		{[]string{"ws:calc/fail"}, "error ERR_HOST_MODULE: no luck"},
		{[]string{"ws:calc/none"}, "error ERR_HOST_MODULE"},
	} {
		res := run(t, ws, runtime.ExecOptions{}, append([]string{"call"}, c.args...)...)
		ok(t, res)
		if !strings.HasPrefix(string(res.Stdout), c.want) {
			t.Errorf("%v: %.80s", c.args, res.Stdout)
		}
	}
	res := run(t, ws, runtime.ExecOptions{}, "interrupt")
	ok(t, res)
	if !strings.HasPrefix(string(res.Stdout), "true") {
		t.Errorf("interrupt: %s", res.Stdout)
	}
}

func TestWritesVisibleToToolsAndJS(t *testing.T) {
	ws := openWSB(t, []runtime.Backend{backend, js.New(js.Options{})})
	ctx := context.Background()
	res := run(t, ws, runtime.ExecOptions{}, "write", "/workspace/out.txt", "from wasm")
	ok(t, res)
	b, err := ws.FS().ReadFile(ctx, "/workspace/out.txt")
	if err != nil || string(b) != "from wasm" {
		t.Fatalf("vfs: %q %v", b, err)
	}
	h, err := ws.Runtime().Exec(ctx, `import fs from "node:fs"; console.log(fs.readFileSync("/workspace/out.txt", "utf8"))`,
		runtime.ExecOptions{Backend: "js"})
	if err != nil {
		t.Fatal(err)
	}
	jr, err := h.Result(ctx)
	if err != nil || string(jr.Stdout) != "from wasm\n" {
		t.Fatalf("js: %q %v %s", jr.Stdout, err, jr.Stderr)
	}
}

func TestConcurrentGuests(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	ws := openWS(t)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := run(t, ws, runtime.ExecOptions{}, "files", "100", fmt.Sprintf("/workspace/c%d", i))
			if res.Status != runtime.StatusCompleted || !strings.Contains(string(res.Stdout), "files 100") {
				errs <- fmt.Sprintf("guest %d: %s %s", i, res.Status, res.Stderr)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	l, err := ws.FS().ReadDir(context.Background(), "/workspace/c3", vfs.Page{})
	if err != nil || len(l.Entries) != 100 {
		t.Fatalf("c3: %v", err)
	}
}
