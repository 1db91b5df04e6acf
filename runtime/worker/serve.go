package worker

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	rthost "github.com/nookdev/nook/runtime/host"
)

// Arg is the first argument a worker process is started with: Main
// recognises it. A program that uses the process tier with the default
// Command calls Main first thing in main.
const Arg = "__nook_worker__"

// MaxStack bounds the Go stack of a worker's goroutines (the Go default is
// 1 GiB; growing a stack copies it, so 64 MiB costs up to 96 MiB). A program that recurses past it on the host's stack (a parser of
// deeply nested input) ends its worker with a fatal "stack overflow", which
// ends only its run, before it can hold a gigabyte.
const MaxStack = 64 << 20

// Main makes the running program a worker when it was started as one (its
// first argument is Arg): it serves runs until its parent goes away, then
// exits; otherwise it returns at once. Call it first thing in main (and in
// TestMain), with the Builders of the backends the runtime is given
// (js.Builder, shell.Builder, wasm.Builder): a worker rebuilds each backend
// from the recipe its parent sends (runtime.Rebuildable), with the
// parent's options. A backend whose builder the worker lacks runs its
// programs in the parent's process.
func Main(builders ...rthost.Builder) {
	if len(os.Args) < 2 || os.Args[1] != Arg {
		return
	}
	os.Exit(Serve(builders...))
}

// Serve runs the worker side of the process tier on stdin and stdout: it
// sandboxes the process (see RATIONALE.md), says hello, and runs one
// program at a time until stdin ends. It returns the process's exit code.
// `nook worker` calls it. builders are as for Main; two of one name are an
// error.
func Serve(builders ...rthost.Builder) int {
	debug.SetMaxStack(MaxStack)
	// Load what the Go runtime and the backends read from the host
	// lazily, before the sandbox forbids opening files.
	time.Now().Zone()
	in, out := os.Stdin, os.Stdout
	// Nothing else may write to the wire.
	os.Stdout = os.Stderr
	w := &server{c: newConn(in, out, maxFrame), builders: map[string]rthost.Builder{}, backends: map[uint64]*built{}}
	h := &hello{Pid: os.Getpid()}
	for _, b := range builders {
		if _, dup := w.builders[b.Name]; dup || b.Name == "" || b.Build == nil {
			h.Err = fmt.Sprintf("the worker was given a builder %q twice, without a name or without a Build function", b.Name)
			w.c.send(&frame{T: tHello, Hello: h})
			return 2
		}
		w.builders[b.Name] = b
		h.Builders = append(h.Builders, b.Name)
	}
	var err error
	h.Landlock, h.Seccomp, err = sandboxSelf()
	if err != nil {
		h.Err = "the worker could not sandbox itself: " + err.Error()
		w.c.send(&frame{T: tHello, Hello: h})
		return 1
	}
	if err := w.c.send(&frame{T: tHello, Hello: h}); err != nil {
		return 1
	}
	w.idle = goruntime.NumGoroutine()
	if err := w.loop(); err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintf(os.Stderr, "nook worker: %v\n", err)
		return 1
	}
	return 0
}

// server is a worker process.
type server struct {
	c        *conn
	builders map[string]rthost.Builder
	backends map[uint64]*built // by recipe serial (only the running program's goroutine touches it)
	idle     int               // goroutines when idle

	nextID atomic.Uint64
	mu     sync.Mutex
	run    *wrun
	wait   map[uint64]chan *frame // answers awaited, by frame id
}

// built is a backend a worker rebuilt from a recipe, or why it could not.
type built struct {
	b       rthost.Backend
	err     error  // the builder failed
	refused string // the backend built is not the parent's
}

// backend returns the backend of s's recipe, building it the first time.
func (w *server) backend(s *start) *built {
	if b := w.backends[s.Recipe]; b != nil {
		return b
	}
	r := s.Build
	if r == nil {
		// The parent sends a recipe with the first run that needs it.
		return &built{err: fmt.Errorf("the sandbox process was never sent the recipe of backend %q", s.Backend)}
	}
	x := &built{}
	w.backends[s.Recipe] = x
	bl, ok := w.builders[r.Builder]
	if !ok {
		x.err = fmt.Errorf("the sandbox process has no builder %q for backend %q: give worker.Main the builders of the runtime's backends", r.Builder, s.Backend)
		return x
	}
	b, err := bl.Build(r.Options)
	switch {
	case err != nil:
		x.err = fmt.Errorf("the sandbox process could not rebuild backend %q: %w", s.Backend, err)
	case b == nil:
		x.err = fmt.Errorf("the sandbox process could not rebuild backend %q: builder %q built nothing", s.Backend, r.Builder)
	case fmt.Sprintf("%T", b) != r.Type:
		x.refused = fmt.Sprintf("builder %q built a %T, not a %s", r.Builder, b, r.Type)
	case b.Info() != r.Info:
		x.refused = fmt.Sprintf("the %s that builder %q built describes itself otherwise than the parent's", r.Type, r.Builder)
	default:
		x.b = b
	}
	return x
}

// wrun is the run a worker is running.
type wrun struct {
	cancel   context.CancelFunc
	writeErr atomic.Pointer[error]
}

func (w *server) loop() error {
	for {
		f, err := w.c.recv()
		if err != nil {
			return err
		}
		switch f.T {
		case tStart:
			w.mu.Lock()
			busy := w.run != nil
			w.mu.Unlock()
			if busy || f.Start == nil {
				return errors.New("a run started while another was running")
			}
			ctx, cancel := context.WithCancel(context.Background())
			x := &wrun{cancel: cancel}
			w.mu.Lock()
			w.run = x
			w.mu.Unlock()
			go w.execute(ctx, x, f.Start)
		case tResult:
			w.mu.Lock()
			ch := w.wait[f.ID]
			delete(w.wait, f.ID)
			w.mu.Unlock()
			if ch != nil {
				ch <- f
			}
		case tWriteFail:
			w.mu.Lock()
			if x := w.run; x != nil {
				err := f.Err.err()
				x.writeErr.Store(&err)
			}
			w.mu.Unlock()
		case tCancel:
			w.mu.Lock()
			if x := w.run; x != nil {
				x.cancel()
			}
			w.mu.Unlock()
		}
	}
}

// execute runs one program and reports its exit, then how clean the
// worker is afterwards.
func (w *server) execute(ctx context.Context, x *wrun, s *start) {
	ex := w.program(ctx, x, s)
	w.c.send(&frame{T: tExit, Exit: ex})
	x.cancel()
	// Clean: every goroutine of the run has returned (but this one).
	clean := false
	for i := 0; i < 50; i++ {
		if goruntime.NumGoroutine() <= w.idle+1 {
			clean = true
			break
		}
		time.Sleep(time.Millisecond)
	}
	// Give a big run's memory back, so the next run's resident size
	// starts near an idle worker's.
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	if ms.HeapSys-ms.HeapReleased > 32<<20 {
		debug.FreeOSMemory()
	}
	w.mu.Lock()
	w.run = nil
	w.mu.Unlock()
	w.c.send(&frame{T: tIdle, OK: clean})
}

func (w *server) program(ctx context.Context, x *wrun, s *start) (ex *exit) {
	h := &client{w: w, x: x, own: s.OwnClock}
	var host rthost.Host = h
	if s.Timers {
		host = &timerClient{h}
	}
	fail := func(err error) *exit {
		host.Write(rthost.Stderr, []byte(err.Error()+"\n"))
		return &exit{Code: 1, Err: toWire(err)}
	}
	defer func() {
		if p := recover(); p != nil {
			ex = fail(fmt.Errorf("internal error: the backend panicked: %v", p))
		}
	}()
	bb := w.backend(s)
	if bb.refused != "" {
		return &exit{Refused: bb.refused}
	}
	if bb.err != nil {
		return fail(bb.err)
	}
	b := bb.b
	req := s.Request
	// Let the Go collector work harder as the run nears its memory
	// limit, which the parent enforces on the process's resident size.
	if m := req.Limits.MaxMemoryBytes; m > 0 {
		debug.SetMemoryLimit(m - m/8)
	}
	var prog rthost.Program
	var err error
	if rs, ok := b.(rthost.Restorer); ok && s.Snapshot != nil {
		prog, err = rs.Restore(ctx, s.Snapshot, &req)
	} else {
		// The parent ships a request only when its backend prepares it
		// without the workspace (runtime.AlonePreparer).
		prog, err = b.Prepare(ctx, nil, &req)
	}
	if err != nil {
		return fail(err)
	}
	e := prog.Run(ctx, host)
	return &exit{Code: e.Code, Value: e.Value, Err: toWire(e.Err), Changes: e.Changes}
}

// client is the Host of a program in a worker: every call crosses to the
// parent, which holds the run's real host.
type client struct {
	own bool // the clock and randomness are the worker's own
	w   *server
	x   *wrun
}

// ask sends f and waits for its answer.
func (h *client) ask(ctx context.Context, f *frame) (*frame, error) {
	f.ID = h.w.nextID.Add(1)
	ch := make(chan *frame, 1)
	h.w.mu.Lock()
	if h.w.wait == nil {
		h.w.wait = map[uint64]chan *frame{}
	}
	h.w.wait[f.ID] = ch
	h.w.mu.Unlock()
	forget := func() {
		h.w.mu.Lock()
		delete(h.w.wait, f.ID)
		h.w.mu.Unlock()
	}
	if err := h.w.c.send(f); err != nil {
		forget()
		return nil, err
	}
	if ctx == nil {
		return <-ch, nil
	}
	select {
	case r := <-ch:
		return r, nil
	case <-ctx.Done():
		forget()
		if f.T == tCall {
			// The parent serves the call with a context of its own:
			// tell it, so that what the call started (a nested run)
			// stops too.
			h.w.c.send(&frame{T: tCallCancel, ID: f.ID})
		}
		return nil, ctx.Err()
	}
}

func (h *client) Call(ctx context.Context, c *rthost.Call) (any, error) {
	r, err := h.ask(ctx, &frame{T: tCall, Seq: c.Seq, Kind: string(c.Kind), Op: c.Op, Val: encodeValue(c.Args)})
	if err != nil {
		return nil, err
	}
	if r.Seq != 0 {
		c.Seq = r.Seq
	}
	if r.Err != nil {
		return nil, r.Err.err()
	}
	v, err := decodeValue(r.Val)
	if err != nil {
		return nil, &rthost.CallError{Code: "EIO", Message: "the result of " + c.Op + " did not cross to the sandbox intact"}
	}
	return v, nil
}

func (h *client) Write(s rthost.Stream, p []byte) error {
	if err := h.x.writeErr.Load(); err != nil {
		return *err
	}
	for len(p) > 0 {
		n := min(len(p), maxWrite)
		if err := h.w.c.send(&frame{T: tWrite, N: int64(s), Data: p[:n]}); err != nil {
			return err
		}
		p = p[n:]
	}
	return nil
}

func (h *client) Now() time.Time {
	if h.own {
		return time.Now()
	}
	r, err := h.ask(nil, &frame{T: tNow})
	if err != nil {
		return time.Now()
	}
	return time.Unix(0, r.N)
}

func (h *client) Random(p []byte) {
	if h.own {
		rand.Read(p)
		return
	}
	r, err := h.ask(nil, &frame{T: tRandom, N: int64(len(p))})
	if err != nil || len(r.Data) != len(p) {
		rand.Read(p)
		return
	}
	copy(p, r.Data)
}

// timerClient is the Host of a program whose host journals timers.
type timerClient struct{ *client }

func (h *timerClient) NextTimer() (id int64, after uint64, ok bool) {
	r, err := h.ask(nil, &frame{T: tNextTimer})
	if err != nil {
		return 0, 0, false
	}
	return r.N, r.M, r.OK
}

func (h *timerClient) TimerFired(id int64, after uint64) {
	h.w.c.send(&frame{T: tTimerFired, N: id, M: after})
}
