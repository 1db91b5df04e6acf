package host

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nookdev/nook/vfs"
)

// HostConfig configures the live host of one run attempt.
type HostConfig struct {
	// FS is the workspace filesystem; Root and Access confine it.
	FS     *vfs.FS
	Root   string
	Access Access
	// RunID is the run's id, used in call ids.
	RunID string
	// Modules are the host modules by name ("ws:orders").
	Modules map[string]Module
	// Outbound is the fetch policy; nil denies fetch.
	Outbound *Outbound
	// Limits are the run's limits (defaults applied by NewHost).
	Limits Limits
	// Output receives the run's output. It returns an error (a
	// *LimitError) when the run must stop printing.
	Output func(stream Stream, p []byte) error
	// Now is the clock (default time.Now); Random fills bytes (default
	// crypto/rand).
	Now    func() time.Time
	Random func(p []byte)
	// Decorate, when set, prepares the CallContext of each host-module
	// call (the journal hooks Interrupt and UnsafeToRepeat in).
	Decorate func(cc *CallContext, seq int64)
	// Exec serves KindExec calls (call number seq): the runtime starts a
	// nested run and returns its outcome. Without it they fail with
	// ENOSYS.
	Exec func(ctx context.Context, seq int64, backend string, args map[string]any) (any, error)
	// Observe, when set, is called as each call starts (after the
	// MaxCalls and MaxConcurrentCalls checks): the call runs in the
	// context it returns, and done is called with the call's error (the
	// runtime's tracing and metrics, runtime.Observer).
	Observe func(ctx context.Context, c *Call) (cctx context.Context, done func(error))
}

// NewHost returns a live host: every call is performed as it is made.
func NewHost(cfg HostConfig) Host {
	cfg.Limits = cfg.Limits.WithDefaults()
	if cfg.Root == "" {
		cfg.Root = "/workspace"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Random == nil {
		cfg.Random = cryptoRandom
	}
	h := &liveHost{cfg: cfg}
	h.fs = &FSOps{FS: cfg.FS, Root: cfg.Root, Access: cfg.Access, Limits: cfg.Limits}
	return h
}

type liveHost struct {
	cfg      HostConfig
	fs       *FSOps
	calls    atomic.Int64 // calls made
	inflight atomic.Int64 // calls in flight
	outMu    sync.Mutex
}

func (h *liveHost) Now() time.Time  { return h.cfg.Now() }
func (h *liveHost) Random(p []byte) { h.cfg.Random(p) }

func (h *liveHost) Write(stream Stream, p []byte) error {
	if h.cfg.Output == nil {
		return nil
	}
	h.outMu.Lock()
	defer h.outMu.Unlock()
	return h.cfg.Output(stream, p)
}

func (h *liveHost) Call(ctx context.Context, c *Call) (any, error) {
	n := h.calls.Add(1)
	if n > int64(h.cfg.Limits.MaxCalls) {
		return nil, &LimitError{Limit: "MaxCalls", Max: int64(h.cfg.Limits.MaxCalls),
			What: fmt.Sprintf("host call number %d", n)}
	}
	if in := h.inflight.Add(1); in > int64(h.cfg.Limits.MaxConcurrentCalls) {
		h.inflight.Add(-1)
		return nil, &LimitError{Limit: "MaxConcurrentCalls", Max: int64(h.cfg.Limits.MaxConcurrentCalls),
			What: fmt.Sprintf("%d host calls in flight", in)}
	}
	defer h.inflight.Add(-1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if h.cfg.Observe == nil {
		return h.call(ctx, c, n)
	}
	ctx, done := h.cfg.Observe(ctx, c)
	res, err := h.call(ctx, c, n)
	done(err)
	return res, err
}

// call carries out call number n.
func (h *liveHost) call(ctx context.Context, c *Call, n int64) (any, error) {
	switch c.Kind {
	case KindFS:
		args, _ := c.Args.(map[string]any)
		return h.fs.Do(ctx, c.Op, args)
	case KindModule:
		seq := c.Seq
		if seq == 0 {
			seq = n
		}
		return h.module(ctx, c, seq)
	case KindFetch:
		args, _ := c.Args.(map[string]any)
		return fetch(ctx, h.cfg.Outbound, h.cfg.Limits, args)
	case KindExec:
		if h.cfg.Exec == nil {
			return nil, &CallError{Code: "ENOSYS", Message: "this host cannot start nested runs"}
		}
		seq := c.Seq
		if seq == 0 {
			seq = n
		}
		args, _ := c.Args.(map[string]any)
		return h.cfg.Exec(ctx, seq, c.Op, args)
	}
	return nil, &CallError{Code: "EINVAL", Message: fmt.Sprintf("unknown host call kind %q", c.Kind)}
}

// module calls a host-module function with JSON-clean arguments and
// returns its JSON-clean result.
func (h *liveHost) module(ctx context.Context, c *Call, n int64) (any, error) {
	name, fn, ok := strings.Cut(c.Op, "/")
	mod := h.cfg.Modules[name]
	f := mod[fn]
	if !ok || f == nil {
		return nil, &CallError{Code: "ERR_HOST_MODULE", Message: fmt.Sprintf("host module %q has no function %q", name, fn)}
	}
	args, _ := c.Args.([]any)
	clean, err := jsonClean(args, h.cfg.Limits.MaxCallBytes, "arguments of "+c.Op)
	if err != nil {
		return nil, err
	}
	cargs, _ := clean.([]any)
	cc := &CallContext{RunID: h.cfg.RunID, CallID: CallID(h.cfg.RunID, n), op: c.Op}
	if h.cfg.Decorate != nil {
		h.cfg.Decorate(cc, n)
	}
	res, err := callFunc(ctx, f, cc, cargs)
	if err != nil {
		if _, ok := err.(*CallError); ok {
			return nil, err
		}
		if _, ok := err.(*LimitError); ok {
			return nil, err
		}
		return nil, &CallError{Code: "ERR_HOST_MODULE", Message: err.Error()}
	}
	return jsonClean(res, h.cfg.Limits.MaxCallBytes, "result of "+c.Op)
}

// CallID is the id of call seq of run: "<run>/<seq>".
func CallID(run string, seq int64) string { return fmt.Sprintf("%s/%d", run, seq) }

// callFunc runs f, turning a panic into an error so a broken host module
// cannot take the process down.
func callFunc(ctx context.Context, f Func, cc *CallContext, args []any) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &CallError{Code: "ERR_HOST_MODULE", Message: fmt.Sprintf("host function panicked: %v", p)}
		}
	}()
	return f(ctx, cc, args)
}

// jsonClean returns v after a JSON round trip: plain data only, sized
// within max bytes.
func jsonClean(v any, max int64, what string) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &CallError{Code: "EINVAL", Message: what + " must be JSON-compatible values (" + err.Error() + ")"}
	}
	if int64(len(b)) > max {
		return nil, &LimitError{Limit: "MaxCallBytes", Max: max, What: fmt.Sprintf("%s (%d bytes of JSON)", what, len(b))}
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, &CallError{Code: "EINVAL", Message: what + " must be JSON-compatible values"}
	}
	return out, nil
}
