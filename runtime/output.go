package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nookdev/nook/journal"
	"github.com/nookdev/nook/vfs"
)

// Output of a run flows: program → write (bounded by MaxOutputBytes) →
// pending events (coalesced, at most MaxStoredOutputBytes in all) → a
// flusher goroutine that stores them a few milliseconds later, in one
// transaction per batch, and wakes the run's readers. Once the stored
// output reaches its cap, each stream is also written in full to a file
// under the runtime's OutputDir, and the events stop (a Truncated event
// names the files).

const (
	flushDelay    = 2 * time.Millisecond // coalescing window
	maxEventBytes = 64 << 10             // an event grows by coalescing up to this
)

type output struct {
	x *run

	mu       sync.Mutex
	seq      int64    // last sequence number assigned
	bytes    [3]int64 // bytes accepted per stream (1 stdout, 2 stderr)
	stored   int64    // bytes in events
	pending  []journal.Event
	carry    [3][]byte // utf8: an incomplete character held for the next write
	prefix   [3][]byte // stored output per stream, kept until a spill
	spilled  bool
	spillBuf [3][]byte // output waiting to be appended to the files
	paths    [3]string
	closed   bool

	// A replay's output: the first skip[s] bytes of each stream were
	// printed by earlier attempts; the replay's own are compared with what
	// is stored of them (expect) and not printed again.
	skip    [3]int64
	matched [3]int64
	expect  [3][]byte

	wake        chan struct{}
	closing     chan struct{} // closed when the run ends
	stopped     chan struct{}
	files       [3]*vfs.File // owned by the flusher
	fileErr     error        // why a spill file could not be written
	fileErrText string       // fileErr, as the run's record says it
	storeFails  int          // consecutive failures to store events (flusher)
}

// An Append that fails (a busy or full disk, an I/O error) keeps its events
// for the next flush, retried after storeRetry; after maxStoreFails
// failures in a row the run is stopped: output it cannot store would be
// output lost.
const (
	storeRetry    = 50 * time.Millisecond
	maxStoreFails = 20
)

// outputStoreError stops a run whose output cannot be stored.
type outputStoreError struct{ err error }

func (e *outputStoreError) Error() string {
	return fmt.Sprintf("Execution stopped: its output could not be stored (%v).", e.err)
}

func (e *outputStoreError) Unwrap() error { return e.err }

// resumeState is where the output of an interrupted run stands: what was
// stored of it by the earlier attempts.
type resumeState struct {
	rec    *journal.Run
	stored [3][]byte // stored output per stream
	spill  bool      // a truncated event is stored
	replay bool      // replay policy: do not print again what was printed
}

func newOutput(x *run, rs *resumeState) *output {
	o := &output{x: x, wake: make(chan struct{}, 1), closing: make(chan struct{}), stopped: make(chan struct{})}
	if rs != nil {
		rec := rs.rec
		o.seq = rec.LastSeq
		o.bytes = [3]int64{0, rec.StdoutBytes, rec.StderrBytes}
		o.paths = [3]string{"", rec.StdoutPath, rec.StderrPath}
		o.stored = int64(len(rs.stored[1]) + len(rs.stored[2]))
		o.spilled = rs.spill
		if !o.spilled {
			o.prefix = rs.stored
		}
		if rs.replay {
			o.skip = o.bytes
			o.expect = rs.stored
		}
	}
	go o.flusher()
	return o
}

// write is the Host's output function.
func (o *output) write(s Stream, p []byte) error {
	if s != Stdout && s != Stderr {
		s = Stdout
	}
	if ctx := o.x.ctx; ctx != nil && ctx.Err() != nil {
		// The run is over (killed, timed out, diverged): what it still
		// prints while it unwinds is dropped.
		return context.Cause(ctx)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil
	}
	if o.matched[s] < o.skip[s] {
		// Replaying: this was printed before.
		n := min(int64(len(p)), o.skip[s]-o.matched[s])
		if have := o.expect[s][min(o.matched[s], int64(len(o.expect[s]))):]; len(have) > 0 {
			m := min(n, int64(len(have)))
			if !bytes.Equal(p[:m], have[:m]) {
				at := o.matched[s]
				for i := int64(0); i < m && p[i] == have[i]; i++ {
					at++
				}
				err := &DivergenceError{Want: fmt.Sprintf("%q", excerpt(have, at-o.matched[s])),
					Got: fmt.Sprintf("the %s printed at byte %d was %q", s, at, excerpt(p, at-o.matched[s]))}
				o.x.cancel(err)
				return err
			}
		}
		o.matched[s] += n
		p = p[n:]
		if len(p) == 0 {
			return nil
		}
	}
	lim := o.x.limits.MaxOutputBytes
	if total := o.bytes[1] + o.bytes[2] + int64(len(p)); total > lim {
		return &LimitError{Limit: "MaxOutputBytes", Max: lim, What: fmt.Sprintf("output of %d bytes", total)}
	}
	o.bytes[s] += int64(len(p))
	o.add(s, p)
	o.signal()
	return nil
}

// writeNote appends a line from the runtime to stderr, past any limit.
func (o *output) writeNote(note string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	msg := note + "\n"
	if n := o.bytes[2]; n > 0 && len(o.carry[2]) == 0 && !o.endsWithNewline(2) {
		msg = "\n" + msg
	}
	o.bytes[2] += int64(len(msg))
	o.add(Stderr, []byte(msg))
}

// endsWithNewline reports whether the last stored byte of stream s is a
// newline (only known before a spill; after it, assume it is).
func (o *output) endsWithNewline(s Stream) bool {
	if o.spilled {
		b := o.spillBuf[s]
		return len(b) == 0 || b[len(b)-1] == '\n'
	}
	b := o.prefix[s]
	return len(b) == 0 || b[len(b)-1] == '\n'
}

func (o *output) signal() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// add routes p of stream s to events or the spill files, holding back an
// incomplete character in utf8 encoding. Callers hold mu.
func (o *output) add(s Stream, p []byte) {
	runes := o.x.encoding == "utf8"
	if runes {
		if c := o.carry[s]; len(c) > 0 {
			p = append(append([]byte(nil), c...), p...)
			o.carry[s] = nil
		}
		if cut := completeUTF8(p); cut < len(p) {
			o.carry[s] = append([]byte(nil), p[cut:]...)
			p = p[:cut]
		}
	}
	o.place(s, p, runes)
}

// place routes p to events or the spill files; with runes, the stored part
// ends at a character boundary. Callers hold mu.
func (o *output) place(s Stream, p []byte, runes bool) {
	if len(p) == 0 {
		return
	}
	if o.spilled {
		o.toFile(s, p)
		return
	}
	room := o.x.limits.MaxStoredOutputBytes - o.stored
	head := p
	if int64(len(head)) > room {
		head = head[:room]
		if runes {
			head = head[:completeUTF8(head)]
		}
	}
	if len(head) > 0 {
		o.event(journal.EventKind(s), head)
		o.stored += int64(len(head))
		o.prefix[s] = append(o.prefix[s], head...)
	}
	if len(head) == len(p) {
		return
	}
	// The stored output is full: from here on every stream goes to its
	// file in full, starting with what was stored.
	o.spilled = true
	for _, st := range []Stream{Stdout, Stderr} {
		if len(o.prefix[st]) > 0 {
			o.toFile(st, o.prefix[st])
		}
		o.prefix[st] = nil
	}
	o.toFile(s, p[len(head):])
	o.event(journal.Truncated, o.pathsJSON())
}

// toFile queues p for stream s's spill file. Callers hold mu.
func (o *output) toFile(s Stream, p []byte) {
	if o.paths[s] == "" {
		o.paths[s] = o.x.rt.outputDir(o.x.id) + "/" + s.String()
	}
	o.spillBuf[s] = append(o.spillBuf[s], p...)
}

func (o *output) pathsJSON() []byte {
	m := map[string]string{}
	for _, s := range []Stream{Stdout, Stderr} {
		if o.paths[s] != "" {
			m[s.String()] = o.paths[s]
		}
	}
	b, _ := json.Marshal(m)
	return b
}

// event appends data as an event of kind k, coalescing with the last
// pending event of the same kind. Callers hold mu.
func (o *output) event(k journal.EventKind, data []byte) {
	if n := len(o.pending); n > 0 && k != journal.Truncated {
		last := &o.pending[n-1]
		if last.Kind == k && len(last.Data)+len(data) <= maxEventBytes {
			last.Data = append(last.Data, data...)
			return
		}
	}
	o.seq++
	o.pending = append(o.pending, journal.Event{Seq: o.seq, Kind: k, Data: append([]byte(nil), data...)})
}

// nextSeq assigns the next sequence number (for the exit event).
func (o *output) nextSeq() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seq++
	return o.seq
}

// progress returns the counters for the record. Callers hold mu.
func (o *output) progress() journal.Progress {
	return journal.Progress{StdoutBytes: o.bytes[1], StderrBytes: o.bytes[2],
		StdoutPath: o.paths[1], StderrPath: o.paths[2]}
}

// take removes what is pending. Callers hold mu.
func (o *output) take() ([]journal.Event, [3][]byte, journal.Progress) {
	evs, sp := o.pending, o.spillBuf
	o.pending, o.spillBuf = nil, [3][]byte{}
	return evs, sp, o.progress()
}

// flusher stores pending output until the output is closed.
func (o *output) flusher() {
	defer close(o.stopped)
	t := time.NewTimer(flushDelay)
	t.Stop()
	for range o.wake {
		// Let more writes coalesce. When the run ends meanwhile, leave
		// what is pending to close, which stores it in the run's final
		// transaction.
		t.Reset(flushDelay)
		select {
		case <-t.C:
		case <-o.closing:
			t.Stop()
			return
		}
		o.mu.Lock()
		evs, sp, p := o.take()
		o.mu.Unlock()
		o.flush(evs, sp, p)
	}
}

// signalLater wakes the flusher after d, unless the output closed by then.
func (o *output) signalLater(d time.Duration) {
	time.AfterFunc(d, func() {
		o.mu.Lock()
		defer o.mu.Unlock()
		if !o.closed {
			o.signal()
		}
	})
}

// flush writes spilled bytes to their files, then stores events. Events
// that could not be stored go back to the front of the queue.
func (o *output) flush(evs []journal.Event, sp [3][]byte, p journal.Progress) {
	p.OutputError = o.writeFiles(sp)
	if len(evs) == 0 && o.x.jh == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var ticks []journal.Tick
	if o.x.jh != nil {
		ticks = o.x.jh.takeTicks()
	}
	err := o.x.rt.appendEvents(ctx, o.x.id, evs, p, ticks)
	if err == nil {
		o.storeFails = 0
		o.x.wakeReaders()
		return
	}
	if o.x.jh != nil {
		o.x.jh.putBack(ticks)
	}
	o.mu.Lock()
	o.pending = append(evs, o.pending...)
	o.mu.Unlock()
	if o.storeFails++; o.storeFails >= maxStoreFails {
		o.x.cancel(&outputStoreError{err})
		return
	}
	o.signalLater(storeRetry)
}

// writeFiles appends spilled output to the spill files. It returns, once
// one of them could not be written, what the run's record says of it: from
// then on no more is written, and the file holds only the beginning of its
// stream.
func (o *output) writeFiles(sp [3][]byte) string {
	o.spill(sp)
	return o.fileErrText
}

func (o *output) spill(sp [3][]byte) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, s := range []Stream{Stdout, Stderr} {
		if len(sp[s]) == 0 || o.fileErr != nil {
			continue
		}
		f := o.files[s]
		if f == nil {
			dir := o.x.rt.outputDir(o.x.id)
			if err := o.x.rt.fs.MkdirAll(ctx, dir, 0o755); err != nil {
				o.spillFailed(ctx, s, err)
				continue
			}
			var err error
			f, err = o.x.rt.fs.OpenFile(ctx, dir+"/"+s.String(), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_APPEND, 0o644)
			if err != nil {
				o.spillFailed(ctx, s, err)
				continue
			}
			o.files[s] = f
		}
		if _, err := f.Write(sp[s]); err != nil {
			o.spillFailed(ctx, s, err)
			continue
		}
		if err := f.Sync(); err != nil {
			o.spillFailed(ctx, s, err)
		}
	}
}

// spillFailed notes that stream s's spill file could not be written.
func (o *output) spillFailed(ctx context.Context, s Stream, err error) {
	o.fileErr = err
	path := o.x.rt.outputDir(o.x.id) + "/" + s.String()
	held := "nothing"
	if fi, serr := o.x.rt.fs.Stat(ctx, path); serr == nil {
		held = fmt.Sprintf("only its first %d bytes", fi.Size())
	}
	o.fileErrText = fmt.Sprintf("the full %s could not be saved: %s holds %s (%v)", s, path, held, err)
}

// close stops the flusher and returns what is still pending, for the
// final transaction. Incomplete characters are flushed as they are.
func (o *output) close() ([]journal.Event, journal.Progress) {
	o.mu.Lock()
	o.closed = true
	for _, s := range []Stream{Stdout, Stderr} {
		if c := o.carry[s]; len(c) > 0 {
			o.carry[s] = nil
			o.place(s, c, false)
		}
	}
	o.mu.Unlock()
	close(o.closing)
	close(o.wake)
	<-o.stopped
	o.mu.Lock()
	evs, sp, p := o.take()
	o.mu.Unlock()
	p.OutputError = o.writeFiles(sp)
	for _, f := range o.files {
		if f != nil {
			f.Close()
		}
	}
	return evs, p
}

// excerpt is a short piece of b from i, for messages.
func excerpt(b []byte, i int64) []byte {
	return b[i:min(int64(len(b)), i+40)]
}

// completeUTF8 returns the length of the longest prefix of p that does not
// end inside a UTF-8 character (an invalid byte counts as complete).
func completeUTF8(p []byte) int {
	n := len(p)
	for i := n - 1; i >= 0 && i >= n-utf8.UTFMax; i-- {
		c := p[i]
		if c < 0x80 {
			return n
		}
		if c >= 0xC0 { // a leading byte: is its character complete?
			if utf8.FullRune(p[i:]) {
				return n
			}
			return i
		}
	}
	return n
}
