package worker

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/nookdev/nook/runtime/host"
)

// proc is one worker process, seen from its parent.
type proc struct {
	pool   *Pool
	cmd    *exec.Cmd
	pid    int
	c      *conn
	stdin  io.Closer
	hello  *hello
	netns  bool
	stderr *capture

	dead     chan struct{} // closed once the process has exited
	exits    chan *exit    // the exit of the running program
	idle     chan bool     // the worker is idle again (clean or not)
	jobs     chan func()   // calls for the call goroutines (unbuffered)
	killOnce sync.Once

	// Between runs (only the run's goroutine or the pool touch them):
	base  usage           // the worker's usage when it was last idle
	lim   host.Limits     // the limits of its last run
	armed bool            // the kernel's limits are set for lim from base
	sent  map[uint64]bool // the serials of the recipes the worker was sent

	mu   sync.Mutex
	sess *session
	runs int
}

// session is the run a worker is running, seen from the parent: the host
// the worker's calls go to.
type session struct {
	host    host.Host
	tj      host.TimerJournal
	ctx     context.Context // the calls' context: the run's
	calls   sync.WaitGroup
	maxCall int64
	failed  bool  // a write failed: the worker was told
	wrErr   error // why (a *runtime.LimitError past MaxOutputBytes)

	mu      sync.Mutex
	cancels map[uint64]context.CancelFunc // calls in flight, by frame id
}

// track gives call id a context of its own, which a tCallCancel frame
// cancels; done forgets it.
func (s *session) track(id uint64) (ctx context.Context, done func()) {
	ctx, cancel := context.WithCancel(s.ctx)
	s.mu.Lock()
	if s.cancels == nil {
		s.cancels = map[uint64]context.CancelFunc{}
	}
	s.cancels[id] = cancel
	s.mu.Unlock()
	return ctx, func() {
		s.mu.Lock()
		delete(s.cancels, id)
		s.mu.Unlock()
		cancel()
	}
}

// cancelCall cancels call id, if it is still in flight.
func (s *session) cancelCall(id uint64) {
	s.mu.Lock()
	cancel := s.cancels[id]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// spawn starts a worker and waits for its hello.
func (p *Pool) spawn(ctx context.Context) (*proc, error) {
	p.mu.Lock()
	netns := !p.opts.NoNetNamespace && p.netns >= 0
	p.mu.Unlock()
	w, err := p.start(ctx, netns)
	if err != nil && netns {
		// The kernel or the container refuses a network namespace:
		// remember, and start without one.
		if w2, err2 := p.start(ctx, false); err2 == nil {
			p.mu.Lock()
			p.netns = -1
			p.mu.Unlock()
			w, err = w2, nil
		}
	} else if err == nil && netns {
		p.mu.Lock()
		p.netns = 1
		p.mu.Unlock()
	}
	p.mu.Lock()
	if err == nil {
		p.last = w.hello
		p.stats.started.Add(1)
	} else {
		p.stats.startFailures.Add(1)
	}
	p.spawnErr = err
	p.mu.Unlock()
	return w, err
}

func (p *Pool) start(ctx context.Context, netns bool) (*proc, error) {
	argv := p.opts.Command
	cmd := exec.Command(argv[0], argv[1:]...)
	// An empty environment (the run's own is passed with its request)
	// and no descriptors but the three pipes.
	cmd.Env = []string{}
	if tz, ok := os.LookupEnv("TZ"); ok {
		cmd.Env = append(cmd.Env, "TZ="+tz)
	}
	cmd.Dir = "/"
	cmd.SysProcAttr = sysProcAttr(netns)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	w := &proc{pool: p, cmd: cmd, stdin: stdin, netns: netns, stderr: &capture{}, sent: map[uint64]bool{},
		dead: make(chan struct{}), exits: make(chan *exit, 1), idle: make(chan bool, 1), jobs: make(chan func())}
	cmd.Stderr = w.stderr
	if _, err := startWorker(cmd); err != nil {
		return nil, err
	}
	w.pid = cmd.Process.Pid
	w.c = newConn(stdout, stdin, maxFrame)
	type helloOr struct {
		f   *frame
		err error
	}
	got := make(chan helloOr, 1)
	go func() {
		f, err := w.c.recv()
		got <- helloOr{f, err}
	}()
	fail := func(err error) (*proc, error) {
		cmd.Process.Kill()
		cmd.Wait()
		if d := w.stderr.detail(); d != "" {
			err = fmt.Errorf("%w: %s", err, d)
		}
		return nil, err
	}
	select {
	case h := <-got:
		if h.err != nil {
			return fail(fmt.Errorf("the worker %s did not start: %v", argv[0], h.err))
		}
		if h.f.T != tHello || h.f.Hello == nil {
			return fail(fmt.Errorf("the worker %s does not speak the protocol", argv[0]))
		}
		if h.f.Hello.Err != "" {
			return fail(errors.New(h.f.Hello.Err))
		}
		w.hello = h.f.Hello
	case <-ctx.Done():
		return fail(ctx.Err())
	case <-time.After(30 * time.Second):
		return fail(errors.New("the worker did not start within 30s"))
	}
	w.base, _ = readUsage(w.pid)
	go w.read()
	return w, nil
}

// kill ends the worker (SIGKILL); its reader then reaps it.
func (w *proc) kill() {
	w.killOnce.Do(func() {
		w.cmd.Process.Kill()
		w.stdin.Close()
	})
}

// read serves the worker's frames until the wire breaks, then reaps the
// process.
func (w *proc) read() {
	for {
		f, err := w.c.recv()
		if err != nil {
			break
		}
		if !w.dispatch(f) {
			break
		}
	}
	w.kill()
	w.cmd.Wait()
	close(w.dead)
}

// dispatch handles one frame; false ends the worker (it broke the
// protocol).
func (w *proc) dispatch(f *frame) bool {
	switch f.T {
	case tExit:
		select {
		case w.exits <- f.Exit:
		default:
			return false
		}
		return true
	case tIdle:
		select {
		case w.idle <- f.OK:
		default:
		}
		return true
	}
	w.mu.Lock()
	s := w.sess
	w.mu.Unlock()
	if s == nil {
		// A frame of a run that ended: nobody listens any more.
		return true
	}
	switch f.T {
	case tCall:
		args, err := decodeValue(f.Val)
		if err != nil {
			return false
		}
		c := &host.Call{Kind: host.CallKind(f.Kind), Op: f.Op, Args: args, Seq: f.Seq}
		s.calls.Add(1)
		ctx, done := s.track(f.ID)
		w.serveCall(func() {
			defer s.calls.Done()
			defer done()
			res, err := s.host.Call(ctx, c)
			w.c.send(&frame{T: tResult, ID: f.ID, Seq: c.Seq, Val: encodeValue(res), Err: toWire(err)})
		})
	case tWrite:
		if err := s.host.Write(host.Stream(f.N), f.Data); err != nil && !s.failed {
			s.failed, s.wrErr = true, err
			w.c.send(&frame{T: tWriteFail, Err: toWire(err)})
		}
	case tNow:
		w.c.send(&frame{T: tResult, ID: f.ID, N: s.host.Now().UnixNano()})
	case tRandom:
		if f.N < 0 || f.N > s.maxCall {
			return false
		}
		b := make([]byte, f.N)
		s.host.Random(b)
		w.c.send(&frame{T: tResult, ID: f.ID, Data: b})
	case tNextTimer:
		var r frame
		r.T, r.ID = tResult, f.ID
		if s.tj != nil {
			r.N, r.M, r.OK = s.tj.NextTimer()
		}
		w.c.send(&r)
	case tTimerFired:
		if s.tj != nil {
			s.tj.TimerFired(f.N, f.M)
		}
	case tCallCancel:
		s.cancelCall(f.ID)
	default:
		return false
	}
	return true
}

// serveCall runs f on one of the worker's call goroutines, starting one
// when none is free. The goroutines live as long as the worker: a call
// that reaches the database needs a deep stack, and a fresh goroutine
// would grow one for every call.
func (w *proc) serveCall(f func()) {
	select {
	case w.jobs <- f:
		return
	default:
	}
	go func() {
		f()
		for {
			select {
			case f := <-w.jobs:
				f()
			case <-w.dead:
				return
			}
		}
	}()
}

// capture keeps the beginning of a worker's stderr (where a fatal error
// starts) and drops the rest.
type capture struct {
	mu  sync.Mutex
	buf []byte
}

const maxCapture = 16 << 10

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	if n := maxCapture - len(c.buf); n > 0 {
		c.buf = append(c.buf, p[:min(n, len(p))]...)
	}
	c.mu.Unlock()
	return len(p), nil
}

func (c *capture) reset() {
	c.mu.Lock()
	c.buf = c.buf[:0]
	c.mu.Unlock()
}

// detail is the first line of the fatal error the worker printed, if it
// printed one.
func (c *capture) detail() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	sc := bufio.NewScanner(strings.NewReader(string(c.buf)))
	first := ""
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if first == "" {
			first = line
		}
		for _, p := range []string{"fatal error:", "runtime:", "panic:", "SIGSEGV", "unexpected fault"} {
			if strings.HasPrefix(line, p) {
				return line
			}
		}
	}
	return first
}
