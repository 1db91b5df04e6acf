package runtime

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nookdev/nook/runtime/internal/hostlink"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nookdev/nook/journal"
)

// journaledHost is the host of a run whose interrupt policy is replay.
// Live, it performs each call through the live host and records request
// and result before the program sees the result (a filesystem call and its
// record commit in one transaction). Replaying an interrupted attempt, it
// answers every call the journal holds from the record, after checking that
// the program asked the same thing, and goes live after the last one. Clock
// reads and timer firings are recorded and replayed the same way; output is
// compared with the stored output by the run's output writer.
type journaledHost struct {
	live Host
	x    *run
	rec  *journal.Recording // what earlier attempts journaled (empty on the first)

	autoSeq atomic.Int64 // numbers calls whose backend left Seq zero

	// Calls a backend did not number (Seq zero: the shell, whose pipeline
	// stages call from concurrent goroutines) are matched by content: the
	// earliest unconsumed record of the same request answers it.
	unnumbered sync.Mutex
	byContent  map[string][]int64 // kind+op+request → recorded seqs, in order
	maxSeq     int64
	reqs       sync.Map // seq → request JSON of calls in flight (for UnsafeToRepeat)

	mu      sync.Mutex
	ticks   []journal.Tick // recorded ticks not yet stored
	next    [3]int64       // next tick number per stream
	waiting atomic.Bool    // a call is waiting for an answer: the run is stopping
	// strict (Verify) allows nothing past the journal: a call, clock read
	// or timer firing it does not hold is a divergence.
	strict bool
}

// DivergenceError is a replay that took a different path from the run it
// replays: it made another call, with other arguments, or printed
// something else. The run fails with it.
type DivergenceError struct {
	Seq  int64  // the call number (0 for output)
	Want string // what the journal holds
	Got  string // what the replay did
}

func (e *DivergenceError) Error() string {
	if e.Seq == 0 {
		return fmt.Sprintf("replay diverged: %s; expected %s", e.Got, e.Want)
	}
	return fmt.Sprintf("replay diverged at call %d: the program asked for %s, the journal holds %s", e.Seq, e.Got, e.Want)
}

// errWaiting stops a run whose call waits for an answer.
var errWaiting = errors.New("waiting for an answer")

// errUnsafeInterrupted fails a run interrupted during an unsafe call.
type unsafeInterruptedError struct {
	seq int64
	op  string
}

func (e *unsafeInterruptedError) Error() string {
	return fmt.Sprintf("the run was interrupted during call %d (%s), which is unsafe to repeat", e.seq, e.op)
}

func describe(kind CallKind, op string, req []byte) string {
	const max = 200
	s := string(req)
	if len(s) > max {
		s = s[:max] + "..."
	}
	return fmt.Sprintf("%s %s %s", kind, op, s)
}

// fail stops the run with err as its cause.
func (h *journaledHost) fail(err error) error {
	h.x.cancel(err)
	return err
}

func (h *journaledHost) Write(s Stream, p []byte) error { return h.live.Write(s, p) }

func (h *journaledHost) Random(p []byte) { h.live.Random(p) }

// takeTicks returns the ticks to store with the next write.
func (h *journaledHost) takeTicks() []journal.Tick {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.ticks
	h.ticks = nil
	return t
}

// putBack returns ticks a failed write did not store.
func (h *journaledHost) putBack(t []journal.Tick) {
	if len(t) == 0 {
		return
	}
	h.mu.Lock()
	h.ticks = append(t, h.ticks...)
	h.mu.Unlock()
}

// tick returns the recorded value of the next tick of stream, or records
// v as it.
func (h *journaledHost) tick(stream int, v []byte) (recorded []byte, replayed bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := h.next[stream]
	h.next[stream]++
	if rec := h.rec.Ticks[stream]; n < int64(len(rec)) {
		return rec[n], true
	}
	if h.strict {
		what := "clock read"
		if stream == journal.TimerStream {
			what = "timer firing"
		}
		h.fail(&DivergenceError{Want: "the end of the journal", Got: fmt.Sprintf("%s %d", what, n+1)})
	}
	h.ticks = append(h.ticks, journal.Tick{Stream: stream, N: n, Value: v})
	return v, false
}

// Now returns the recorded clock reading, or the live one, recorded.
func (h *journaledHost) Now() time.Time {
	t := h.live.Now()
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(t.UnixNano()))
	v, _ := h.tick(journal.ClockStream, b[:])
	return time.Unix(0, int64(binary.BigEndian.Uint64(v)))
}

// TimerFiring is one firing of a program's timer, as a replay-policy run
// journals it: timer ID fired once the program had received After call
// completions (see TimerJournal).
type TimerFiring struct {
	ID    int64  `json:"id"`
	After uint64 `json:"after"`
}

// timerTick is a journaled timer firing.
type timerTick = TimerFiring

// NextTimer reports the next recorded timer firing, if the replay has not
// passed the last one (see TimerJournal).
func (h *journaledHost) NextTimer() (id int64, after uint64, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := h.next[journal.TimerStream]
	rec := h.rec.Ticks[journal.TimerStream]
	if n >= int64(len(rec)) {
		return 0, 0, false
	}
	var t timerTick
	json.Unmarshal(rec[n], &t)
	return t.ID, t.After, true
}

// TimerFired records a timer firing, or checks it against the record.
func (h *journaledHost) TimerFired(id int64, after uint64) {
	v, _ := json.Marshal(timerTick{id, after})
	rec, replayed := h.tick(journal.TimerStream, v)
	if replayed && !bytes.Equal(rec, v) {
		h.fail(&DivergenceError{Want: "timer " + string(rec), Got: "timer " + string(v)})
	}
}

// Call answers from the journal or performs and records.
func (h *journaledHost) Call(ctx context.Context, c *Call) (any, error) {
	req, err := encodeValue(map[string]any{"args": c.Args})
	if err != nil {
		return nil, &CallError{Code: "EINVAL", Message: "the call's arguments are not JSON-compatible: " + err.Error()}
	}
	seq := c.Seq
	if seq == 0 {
		seq = h.matchUnnumbered(c, req)
		c.Seq = seq
	}
	if r := h.rec.Calls[seq]; r != nil {
		if r.Kind != string(c.Kind) || r.Op != c.Op || !bytes.Equal(r.Request, req) {
			return nil, h.fail(&DivergenceError{Seq: seq, Want: describe(CallKind(r.Kind), r.Op, r.Request),
				Got: describe(c.Kind, c.Op, req)})
		}
		if r.Done {
			h.x.rt.observeReplayed(ctx, h.x.id, c, seq)
			return recordedResult(r)
		}
		if r.Unsafe {
			return nil, h.fail(&unsafeInterruptedError{seq, c.Op})
		}
		// Started and interrupted before it finished: run it again.
	}
	if h.strict {
		return nil, h.fail(&DivergenceError{Seq: seq, Want: "the end of the journal", Got: describe(c.Kind, c.Op, req)})
	}
	h.reqs.Store(seq, req)
	defer h.reqs.Delete(seq)
	lim := h.x.limits.MaxJournalEntryBytes
	record := func(res any, cerr error) *journal.CallRecord {
		r := &journal.CallRecord{Seq: seq, Kind: string(c.Kind), Op: c.Op, Request: req, Done: true}
		if cerr == nil {
			b, err := encodeValue(res)
			switch {
			case err != nil:
				cerr = &CallError{Code: "EINVAL", Message: "the result is not JSON-compatible: " + err.Error()}
			case int64(len(b)) > lim:
				cerr = &CallError{Code: "ERR_JOURNAL_ENTRY_TOO_LARGE", Message: fmt.Sprintf(
					"the result of %s (%d bytes) exceeds the journal's entry limit MaxJournalEntryBytes (%d): "+
						"a replayable run must pass big data through files (write it to a file and pass the path)",
					c.Op, len(b), lim)}
			default:
				r.Response = b
			}
		}
		if cerr != nil {
			r.Failure = encodeFailure(cerr)
		}
		return r
	}
	if int64(len(req)) > lim {
		return nil, &CallError{Code: "ERR_JOURNAL_ENTRY_TOO_LARGE", Message: fmt.Sprintf(
			"the arguments of %s (%d bytes) exceed the journal's entry limit MaxJournalEntryBytes (%d): "+
				"a replayable run must pass big data through files (write it to a file and pass the path)",
			c.Op, len(req), lim)}
	}
	var out *journal.CallRecord
	if c.Kind == KindFS {
		// The operation and its record commit together.
		ticks := h.takeTicks()
		err := h.x.rt.store.WriteCall(ctx, h.x.id, ticks, func(jctx context.Context) (*journal.CallRecord, error) {
			res, cerr := h.live.Call(jctx, c)
			if isFatal(cerr) {
				return nil, cerr
			}
			out = record(res, cerr)
			return out, nil
		})
		if err != nil {
			h.putBack(ticks)
			return nil, err
		}
	} else {
		if c.Kind == KindExec && h.rec.Calls[seq] == nil {
			// Journal the call as begun before the nested run starts, so
			// that a replay interrupted meanwhile numbers it the same and
			// finds that run again (see spawn.go).
			begun := &journal.CallRecord{Seq: seq, Kind: string(c.Kind), Op: c.Op, Request: req}
			ticks := h.takeTicks()
			if err := h.x.rt.putCall(ctx, h.x.id, ticks, begun); err != nil {
				h.putBack(ticks)
				return nil, err
			}
		}
		res, cerr := h.live.Call(ctx, c)
		if h.waiting.Load() || isFatal(cerr) {
			return nil, cerr
		}
		out = record(res, cerr)
		ticks := h.takeTicks()
		if err := h.x.rt.putCall(ctx, h.x.id, ticks, out); err != nil {
			h.putBack(ticks)
			return nil, err
		}
	}
	return recordedResult(out)
}

// matchUnnumbered numbers a call its backend did not number: the recorded
// call with the same request that no earlier call of this attempt took, or
// a new number past every recorded one.
func (h *journaledHost) matchUnnumbered(c *Call, req []byte) int64 {
	h.unnumbered.Lock()
	defer h.unnumbered.Unlock()
	if h.byContent == nil {
		h.byContent = map[string][]int64{}
		seqs := make([]int64, 0, len(h.rec.Calls))
		for s := range h.rec.Calls {
			seqs = append(seqs, s)
		}
		slices.Sort(seqs)
		for _, s := range seqs {
			r := h.rec.Calls[s]
			k := r.Kind + "\x00" + r.Op + "\x00" + string(r.Request)
			h.byContent[k] = append(h.byContent[k], s)
			h.maxSeq = max(h.maxSeq, s)
		}
		h.autoSeq.Store(h.maxSeq)
	}
	k := string(c.Kind) + "\x00" + c.Op + "\x00" + string(req)
	if q := h.byContent[k]; len(q) > 0 {
		h.byContent[k] = q[1:]
		return q[0]
	}
	return h.autoSeq.Add(1)
}

// isFatal reports whether err ends the run rather than being the call's
// result: a limit or the end of the run's context.
func isFatal(err error) bool {
	var le *LimitError
	return errors.As(err, &le) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// encodeFailure is the JSON of a call's failure.
func encodeFailure(err error) []byte {
	var ce *CallError
	if !errors.As(err, &ce) {
		ce = &CallError{Message: err.Error()}
	}
	b, _ := json.Marshal(ce)
	return b
}

// recordedResult is what a recorded call returns.
func recordedResult(r *journal.CallRecord) (any, error) {
	if r.Failure != nil {
		var ce CallError
		json.Unmarshal(r.Failure, &ce)
		return nil, &ce
	}
	return decodeValue(r.Response)
}

// opOf is the op of a host-module call ("ws:mod/fn"), from its context.
func opOf(cc *CallContext) string { return hostlink.Op(cc) }

// decorate hooks UnsafeToRepeat and Interrupt into a host-module call.
func (h *journaledHost) decorate(cc *CallContext, seq int64) {
	beginUnsafe := func(ctx context.Context) error {
		r := &journal.CallRecord{Seq: seq, Kind: string(KindModule), Op: opOf(cc), Unsafe: true}
		if req, ok := h.reqs.Load(seq); ok {
			r.Request = req.([]byte)
		}
		ticks := h.takeTicks()
		if err := h.x.rt.putCall(ctx, h.x.id, ticks, r); err != nil {
			h.putBack(ticks)
			return err
		}
		return nil
	}
	interrupt := func(payload any) (any, error) {
		if a, ok := h.rec.Answers[seq]; ok {
			return decodeValue(a)
		}
		b, err := encodeValue(payload)
		if err != nil {
			return nil, fmt.Errorf("the payload of Interrupt must be JSON-compatible: %v", err)
		}
		rt := h.x.rt
		now := rt.opts.Now()
		ctx := context.WithoutCancel(h.x.ctx)
		// Store what is pending first, so the wait survives a restart
		// with everything before it.
		if t := h.takeTicks(); len(t) > 0 {
			if err := rt.appendEvents(ctx, h.x.id, nil, journal.Progress{}, t); err != nil {
				h.putBack(t)
				return nil, err
			}
		}
		h.waiting.Store(true)
		if err := rt.store.AddWait(ctx, h.x.id, seq, b, now); err != nil {
			h.waiting.Store(false)
			return nil, err
		}
		h.fail(errWaiting)
		if rt.opts.OnWait != nil {
			rt.opts.OnWait(PendingCall{RunID: h.x.id, CallID: CallID(h.x.id, seq), Payload: b, Since: now})
		}
		return nil, errWaiting
	}
	hostlink.Hook(cc, beginUnsafe, interrupt)
}
