package js_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nookdev/nook"
	"github.com/nookdev/nook/runtime"
	"github.com/nookdev/nook/runtime/js"
	"github.com/nookdev/nook/vfs"
)

// env is a workspace with a JavaScript backend.
type env struct {
	t  *testing.T
	ws *nook.Workspace
	b  *js.Backend
}

func newEnv(t *testing.T, opts ...js.Options) *env {
	t.Helper()
	ctx := context.Background()
	ws, err := nook.OpenMemory(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	var o js.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	return &env{t: t, ws: ws, b: js.New(o)}
}

// write creates a workspace file (and its parents).
func (e *env) write(name, content string) {
	e.t.Helper()
	if err := e.ws.FS().WriteFile(context.Background(), name, []byte(content), &vfs.WriteOptions{MkdirAll: true}); err != nil {
		e.t.Fatal(err)
	}
}

// result is what a run produced.
type result struct {
	exit   runtime.Exit
	stdout string
	stderr string
	all    string // both streams, interleaved as written
}

func (r result) value() string { return string(r.exit.Value) }

// spec is a run to make.
type spec struct {
	src      string
	input    string
	cwd      string
	env      map[string]string
	args     []string
	stdin    string
	modules  map[string]runtime.Module
	fetch    bool
	outbound *runtime.Outbound // the policy fetch goes through (implies fetch)
	limits   runtime.Limits
	timeout  time.Duration
	now      func() time.Time
	random   func([]byte)
	maxOut   int // output limit enforced by the Output func (0: none)
	prepared func(runtime.Program)
}

// prepare prepares s, failing the test on error.
func (e *env) prepare(s spec) runtime.Program {
	e.t.Helper()
	p, err := e.prepareErr(s)
	if err != nil {
		e.t.Fatalf("prepare: %v", err)
	}
	return p
}

func (e *env) request(s spec) *runtime.Request {
	mods := map[string][]string{}
	for name, m := range s.modules {
		for f := range m {
			mods[name] = append(mods[name], f)
		}
	}
	cwd := s.cwd
	if cwd == "" {
		cwd = "/workspace"
	}
	req := &runtime.Request{ID: "t1", Source: s.src, Cwd: cwd, Env: s.env, Args: s.args,
		Stdin: []byte(s.stdin), Modules: mods, Fetch: s.fetch || s.outbound != nil, Limits: s.limits.WithDefaults()}
	if s.input != "" {
		req.Input = json.RawMessage(s.input)
	}
	return req
}

func (e *env) prepareErr(s spec) (runtime.Program, error) {
	return e.b.Prepare(context.Background(), e.ws.FS(), e.request(s))
}

// run prepares and runs s.
func (e *env) run(s spec) result {
	e.t.Helper()
	p := e.prepare(s)
	return e.runProgram(p, s)
}

func (e *env) runProgram(p runtime.Program, s spec) result {
	var mu sync.Mutex
	var out, errb, all bytes.Buffer
	total := 0
	host := runtime.NewHost(runtime.HostConfig{
		FS: e.ws.FS(), Root: "/workspace", RunID: "t1", Modules: s.modules, Limits: s.limits, Outbound: s.outbound,
		Now: s.now, Random: s.random,
		Output: func(stream runtime.Stream, p []byte) error {
			mu.Lock()
			defer mu.Unlock()
			total += len(p)
			if s.maxOut > 0 && total > s.maxOut {
				return &runtime.LimitError{Limit: "MaxOutputBytes", Max: int64(s.maxOut), What: "output"}
			}
			if stream == runtime.Stderr {
				errb.Write(p)
			} else {
				out.Write(p)
			}
			all.Write(p)
			return nil
		},
	})
	ctx := context.Background()
	timeout := s.timeout
	if timeout == 0 {
		timeout = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ex := p.Run(ctx, host)
	mu.Lock()
	defer mu.Unlock()
	return result{exit: ex, stdout: out.String(), stderr: errb.String(), all: all.String()}
}

// ok runs s and fails the test unless it exits 0.
func (e *env) ok(s spec) result {
	e.t.Helper()
	r := e.run(s)
	if r.exit.Code != 0 || r.exit.Err != nil {
		e.t.Fatalf("run failed: code %d, err %v\nstderr:\n%s", r.exit.Code, r.exit.Err, r.stderr)
	}
	return r
}

func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s does not contain %q:\n%s", what, w, got)
		}
	}
}

func after(d time.Duration) <-chan time.Time { return time.After(d) }
func msec(n int) time.Duration               { return time.Duration(n) * time.Millisecond }
