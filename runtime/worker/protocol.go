package worker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"io"
	"sync"

	"github.com/nookdev/nook/runtime"
)

// The wire between a parent and its worker is a stream of gob-encoded
// frames each way: the worker's stdin carries the parent's frames, its
// stdout the worker's. The arguments and results of calls cross in their
// own codec (value.go), which keeps their dynamic types, so a backend sees
// exactly what an in-process host would have returned.

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
	Backends []string                       // the ids of the backends it can run
	Types    map[string]string              // their Go types, by id
	Infos    map[string]runtime.BackendInfo // what they say of themselves, by id
	Seccomp  bool                           // its seccomp filter is installed
	Landlock int                            // the Landlock ABI it restricted itself with (0: none)
	Err      string                         // why it could not sandbox itself (it exits)
}

// start is one run for a worker.
type start struct {
	Backend  string
	Request  runtime.Request
	Snapshot []byte // the program's snapshot when its backend restores
	Timers   bool   // the host journals timers (TimerJournal)
	OwnClock bool   // the worker reads its own clock and randomness (runtime.OwnClock)
}

// exit is how a program ended in a worker.
type exit struct {
	Code    int
	Value   []byte
	Err     *wireError
	Changes *runtime.Changes
	// Clean reports that the worker is back to its idle state: no
	// goroutine of the run is left.
	Clean bool
}

// wireError carries the errors a Host returns and a program exits with,
// keeping the types a backend or the runtime looks at.
type wireError struct {
	Type string // "call", "limit", "canceled", "deadline", "" (any other)
	Call runtime.CallError
	Lim  runtime.LimitError
	Msg  string
}

func toWire(err error) *wireError {
	if err == nil {
		return nil
	}
	var ce *runtime.CallError
	var le *runtime.LimitError
	switch {
	case errors.As(err, &ce):
		return &wireError{Type: "call", Call: *ce}
	case errors.As(err, &le):
		return &wireError{Type: "limit", Lim: *le}
	case errors.Is(err, context.Canceled):
		return &wireError{Type: "canceled"}
	case errors.Is(err, context.DeadlineExceeded):
		return &wireError{Type: "deadline"}
	}
	return &wireError{Msg: err.Error()}
}

func (w *wireError) err() error {
	if w == nil {
		return nil
	}
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
	return errors.New(w.Msg)
}

// conn is one end of the wire. Each frame is sent as a chunk: its length
// (a uvarint) and the gob encoding of the frame (with the type definitions
// gob sends the first time). A receiver refuses a chunk longer than its
// bound before reading it, so a worker that misbehaves cannot make its
// parent allocate more than that.
type conn struct {
	mu  sync.Mutex
	w   *bufio.Writer
	buf bytes.Buffer
	enc *gob.Encoder
	in  *chunkReader
	dec *gob.Decoder
}

func newConn(r io.Reader, w io.Writer, maxFrame int) *conn {
	c := &conn{w: bufio.NewWriterSize(w, 64<<10),
		in: &chunkReader{r: bufio.NewReaderSize(r, 64<<10), max: maxFrame}}
	c.enc = gob.NewEncoder(&c.buf)
	c.dec = gob.NewDecoder(c.in)
	return c
}

// errFrameTooLarge is a chunk past the receiver's bound.
var errFrameTooLarge = errors.New("a frame exceeds the wire's bound")

// send writes one frame. It is safe for concurrent use.
func (c *conn) send(f *frame) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Reset()
	if err := c.enc.Encode(f); err != nil {
		return err
	}
	var n [binary.MaxVarintLen64]byte
	c.w.Write(n[:binary.PutUvarint(n[:], uint64(c.buf.Len()))])
	c.w.Write(c.buf.Bytes())
	if c.buf.Cap() > 1<<20 {
		// Do not keep a big frame's buffer for the worker's life.
		c.buf = bytes.Buffer{}
	}
	return c.w.Flush()
}

// recv reads the next frame; only one goroutine may call it.
func (c *conn) recv() (*frame, error) {
	f := new(frame)
	if err := c.dec.Decode(f); err != nil {
		return nil, err
	}
	return f, nil
}

// chunkReader reads the chunks of a conn back to back, as one stream for
// gob, checking each chunk's length against max before reading it.
type chunkReader struct {
	r    *bufio.Reader
	max  int
	left int
	err  error
}

func (c *chunkReader) next() error {
	if c.err != nil {
		return c.err
	}
	for c.left == 0 {
		n, err := binary.ReadUvarint(c.r)
		if err != nil {
			c.err = err
			return err
		}
		if n > uint64(c.max) {
			c.err = errFrameTooLarge
			return c.err
		}
		c.left = int(n)
	}
	return nil
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if err := c.next(); err != nil {
		return 0, err
	}
	n, err := c.r.Read(p[:min(len(p), c.left)])
	c.left -= n
	return n, err
}

func (c *chunkReader) ReadByte() (byte, error) {
	if err := c.next(); err != nil {
		return 0, err
	}
	b, err := c.r.ReadByte()
	if err == nil {
		c.left--
	}
	return b, err
}

// maxFrame bounds one frame on the wire, both ways. A call's request and
// response are bounded by Limits.MaxCallBytes (16 MiB by default) and a
// worker sends output in pieces of at most maxWrite bytes.
const maxFrame = 64 << 20

// maxWrite is the largest piece of output in one frame.
const maxWrite = 1 << 20
