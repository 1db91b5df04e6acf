package worker

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"sync"

	"github.com/nookdev/nook/runtime/host"
)

// The wire between a parent and its worker is a stream of frames each
// way: the worker's stdin carries the parent's frames, its stdout the
// worker's. A frame crosses in an exact codec (wire.go) and the arguments
// and results of calls in their own (value.go), which keeps their dynamic
// types: what crosses arrives reflect.DeepEqual to what was sent, so a
// backend and the runtime see exactly what an in-process run would have.

// Frame types.
const (
	// worker → parent
	tHello      = iota + 1 // the worker is ready (Hello)
	tCall                  // Host.Call (ID, Seq, Kind, Op, Val)
	tWrite                 // Host.Write (N: stream, Data)
	tNow                   // Host.Now (ID)
	tRandom                // Host.Random (ID, N: length)
	tNextTimer             // TimerJournal.NextTimer (ID)
	tTimerFired            // TimerJournal.TimerFired (N: id, M: after)
	tExit                  // the program ended (Exit)
	tIdle                  // the worker is idle again (OK: no goroutine of the run is left)

	// parent → worker
	tStart     // run a program (Start)
	tResult    // the answer to ID (Val, Err, Seq; N: time; Data: random bytes; N, M, OK: timer)
	tWriteFail // Host.Write failed: every later write fails with Err
	tCancel    // the run's context ended

	// worker → parent
	tCallCancel // the program gave up on call ID (its context ended): the parent cancels it
)

type frame struct {
	T     uint8
	ID    uint64
	Seq   int64
	Kind  string
	Op    string
	Val   []byte // a call's arguments or result (see value.go)
	Err   *wireError
	Data  []byte
	N     int64
	M     uint64
	OK    bool
	Hello *hello
	Start *start
	Exit  *exit
}

// hello is what a worker says when it is ready.
type hello struct {
	Pid      int
	Builders []string // the names of the builders it rebuilds backends with
	Seccomp  bool     // its seccomp filter is installed
	Landlock int      // the Landlock ABI it restricted itself with (0: none)
	Err      string   // why it cannot serve (it exits): it could not sandbox itself, its builders are wrong
}

// start is one run for a worker.
type start struct {
	Backend  string // the backend's id, for messages
	Recipe   uint64 // the serial number of the backend's recipe in the pool
	Build    *build // the recipe, the first time this worker is sent it
	Request  host.Request
	Snapshot []byte // the program's snapshot when its backend restores
	Timers   bool   // the host journals timers (TimerJournal)
	OwnClock bool   // the worker reads its own clock and randomness (runtime.OwnClock)
}

// build is a backend's recipe, as a worker receives it: what to build,
// and what the parent's backend is, for the worker to check that it
// built the same.
type build struct {
	Builder string
	Options []byte
	Type    string           // the Go type of the parent's backend
	Info    host.BackendInfo // what it says of itself
}

// exit is how a program ended in a worker.
type exit struct {
	Code    int
	Value   []byte
	Err     *wireError
	Changes *host.Changes
	// Refused says why the worker did not run the program: the backend
	// it rebuilt from the recipe is not the parent's (another Go type,
	// or it describes itself otherwise). The parent runs the program in
	// process.
	Refused string
	// Clean reports that the worker is back to its idle state: no
	// goroutine of the run is left.
	Clean bool
}

// wireError carries the errors a Host returns and a program exits with,
// keeping the types a backend or the runtime looks at and the message
// whole: a *runtime.CallError or *runtime.LimitError (or a context error)
// wrapped in more words arrives as an error with the same message that
// unwraps to the same typed error.
type wireError struct {
	Type string // "call", "limit", "canceled", "deadline", "" (any other)
	Call host.CallError
	Lim  host.LimitError
	Msg  string // the message, when it is not the typed error's own
}

func toWire(err error) *wireError {
	if err == nil {
		return nil
	}
	var ce *host.CallError
	var le *host.LimitError
	var w *wireError
	switch {
	case errors.As(err, &ce):
		w = &wireError{Type: "call", Call: *ce}
	case errors.As(err, &le):
		w = &wireError{Type: "limit", Lim: *le}
	case errors.Is(err, context.Canceled):
		w = &wireError{Type: "canceled"}
	case errors.Is(err, context.DeadlineExceeded):
		w = &wireError{Type: "deadline"}
	default:
		return &wireError{Msg: err.Error()}
	}
	if msg := err.Error(); msg != w.typed().Error() {
		w.Msg = msg
	}
	return w
}

// typed is the typed error w carries (nil for another kind).
func (w *wireError) typed() error {
	switch w.Type {
	case "call":
		ce := w.Call
		return &ce
	case "limit":
		le := w.Lim
		return &le
	case "canceled":
		return context.Canceled
	case "deadline":
		return context.DeadlineExceeded
	}
	return nil
}

func (w *wireError) err() error {
	if w == nil {
		return nil
	}
	t := w.typed()
	switch {
	case t == nil:
		return errors.New(w.Msg)
	case w.Msg != "":
		return &wrappedError{msg: w.Msg, err: t}
	}
	return t
}

// wrappedError is a typed error that crossed inside more words.
type wrappedError struct {
	msg string
	err error
}

func (e *wrappedError) Error() string { return e.msg }
func (e *wrappedError) Unwrap() error { return e.err }

// conn is one end of the wire. Each frame is sent as a chunk: its length
// (a uvarint) and the frame's exact encoding (wire.go). A receiver refuses
// a chunk longer than its bound before reading it, so a worker that
// misbehaves cannot make its parent allocate more than that.
type conn struct {
	mu  sync.Mutex
	w   *bufio.Writer
	buf []byte
	r   *bufio.Reader
	in  []byte
	max int
}

func newConn(r io.Reader, w io.Writer, maxFrame int) *conn {
	return &conn{w: bufio.NewWriterSize(w, 64<<10), r: bufio.NewReaderSize(r, 64<<10), max: maxFrame}
}

// errFrameTooLarge is a chunk past the receiver's bound.
var errFrameTooLarge = errors.New("a frame exceeds the wire's bound")

// send writes one frame. It is safe for concurrent use.
func (c *conn) send(f *frame) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, err := appendExact(c.buf[:0], reflect.ValueOf(f).Elem())
	if err != nil {
		return err
	}
	var n [binary.MaxVarintLen64]byte
	c.w.Write(n[:binary.PutUvarint(n[:], uint64(len(b)))])
	c.w.Write(b)
	if cap(b) > 1<<20 {
		// Do not keep a big frame's buffer for the worker's life.
		b = nil
	}
	c.buf = b
	return c.w.Flush()
}

// recv reads the next frame; only one goroutine may call it.
func (c *conn) recv() (*frame, error) {
	n, err := binary.ReadUvarint(c.r)
	if err != nil {
		return nil, err
	}
	if n > uint64(c.max) {
		return nil, errFrameTooLarge
	}
	if uint64(cap(c.in)) < n {
		c.in = make([]byte, n)
	}
	b := c.in[:n]
	if _, err := io.ReadFull(c.r, b); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	if cap(c.in) > 1<<20 {
		c.in = nil
	}
	f := new(frame)
	if err := decodeExact(b, f); err != nil {
		return nil, err
	}
	return f, nil
}

// maxFrame bounds one frame on the wire, both ways. A call's request and
// response are bounded by Limits.MaxCallBytes (16 MiB by default) and a
// worker sends output in pieces of at most maxWrite bytes.
const maxFrame = 64 << 20

// maxWrite is the largest piece of output in one frame.
const maxWrite = 1 << 20
