package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nookdev/nook/journal"
	"github.com/nookdev/nook/vfs"
)

// ENOTWAITING is the code of Respond to a call that is not waiting.
const ENOTWAITING vfs.Errno = "ENOTWAITING"

// PendingCall is a host-module call waiting for an answer.
type PendingCall struct {
	RunID   string
	CallID  string          // "<run>/<call number>", what the function saw
	Payload json.RawMessage // what it passed to Interrupt
	Since   time.Time
}

// Pending lists the calls waiting for an answer, oldest first.
func (r *Runtime) Pending(ctx context.Context) ([]PendingCall, error) {
	ws, err := r.store.Pending(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]PendingCall, len(ws))
	for i, w := range ws {
		out[i] = PendingCall{RunID: w.Run, CallID: CallID(w.Run, w.Seq), Payload: w.Payload, Since: w.Since}
	}
	return out, nil
}

// Respond answers a waiting call: once none of its calls waits any more,
// the run replays up to the call, in this process, and the function's
// Interrupt returns answer (which must be JSON-compatible). Answering a
// call that is not waiting (already answered, or never waiting) fails with
// ENOTWAITING.
func (r *Runtime) Respond(ctx context.Context, runID, callID string, answer any) error {
	const op = "respond"
	seq, err := callSeq(runID, callID)
	if err != nil {
		return &Error{Op: op, ID: runID, Code: vfs.EINVAL, Text: err.Error()}
	}
	b, err := encodeValue(answer)
	if err != nil {
		return &Error{Op: op, ID: runID, Code: vfs.EINVAL, Text: "the answer must be JSON-compatible: " + err.Error()}
	}
	now := r.opts.Now()
	since, resumable, err := r.store.Respond(ctx, runID, seq, b, now)
	if errors.Is(err, journal.ErrNotWaiting) {
		return &Error{Op: op, ID: runID, Code: ENOTWAITING, Err: err,
			Text: fmt.Sprintf("call %s is not waiting for an answer", callID)}
	}
	if err != nil {
		return err
	}
	if wo, ok := r.opts.Observer.(WaitObserver); ok {
		wo.CallAnswered(ctx, PendingCall{RunID: runID, CallID: callID, Since: since}, now)
	}
	if !resumable {
		return nil
	}
	rec, err := r.store.Get(ctx, runID)
	if err != nil {
		return r.notFound(op, runID, err)
	}
	return r.resume(ctx, rec)
}

// callSeq parses a call id of run.
func callSeq(run, callID string) (int64, error) {
	rest, ok := strings.CutPrefix(callID, run+"/")
	n, err := strconv.ParseInt(rest, 10, 64)
	if !ok || err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not a call id of run %s (want %s/N)", callID, run, run)
	}
	return n, nil
}
