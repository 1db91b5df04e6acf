package runtime

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nookdev/nook/journal"
	"github.com/nookdev/nook/vfs"
)

// JournalCall is one call a replay-policy run made, as journaled.
type JournalCall struct {
	Seq    int64
	Kind   CallKind
	Op     string
	Args   json.RawMessage // the request's arguments (bytes as {"$b": base64})
	Result json.RawMessage // the result, when the call succeeded
	Error  *CallError      // the failure, when it failed
	Done   bool            // false: started, never finished
	Unsafe bool            // the function is unsafe to repeat
}

// Journal returns the calls journaled for a run: those of a running
// replay-policy run, or of a finished one kept with Options.KeepJournal.
func (r *Runtime) Journal(ctx context.Context, id string) ([]JournalCall, error) {
	if _, err := r.store.Get(ctx, id); err != nil {
		return nil, r.notFound("journal", id, err)
	}
	recs, err := r.store.Calls(ctx, id)
	if err != nil {
		return nil, err
	}
	out := make([]JournalCall, len(recs))
	for i, c := range recs {
		jc := JournalCall{Seq: c.Seq, Kind: CallKind(c.Kind), Op: c.Op, Done: c.Done, Unsafe: c.Unsafe, Result: c.Response}
		var req struct {
			Args json.RawMessage `json:"args"`
		}
		json.Unmarshal(c.Request, &req)
		jc.Args = req.Args
		if c.Failure != nil {
			jc.Error = new(CallError)
			json.Unmarshal(c.Failure, jc.Error)
		}
		out[i] = jc
	}
	return out, nil
}

// Verify runs a finished replay-policy run again against its journal
// (kept with Options.KeepJournal), touching nothing: every call must be
// answered by the journal, and the program must print exactly what the run
// printed and end the same way. It returns nil when the replay matches,
// else the first difference (a *DivergenceError). Conformance suites use it
// to check that runs replay.
func (r *Runtime) Verify(ctx context.Context, id string) error {
	const op = "verify"
	rec, evs, err := r.store.Load(ctx, id)
	if err != nil {
		return r.notFound(op, id, err)
	}
	if rec.Finished.IsZero() {
		return &Error{Op: op, ID: id, Code: EBUSY, Text: fmt.Sprintf("run %s has not finished", id)}
	}
	if Policy(rec.Policy) != PolicyReplay {
		return &Error{Op: op, ID: id, Code: vfs.EINVAL, Text: fmt.Sprintf("run %s was not run with the replay policy", id)}
	}
	recording, err := r.store.Recording(ctx, id)
	if err != nil {
		return err
	}
	if len(recording.Calls) == 0 && len(recording.Ticks) == 0 && !r.opts.KeepJournal {
		return &Error{Op: op, ID: id, Code: vfs.EINVAL,
			Text: fmt.Sprintf("run %s has no journal (keep journals with Options.KeepJournal)", id)}
	}
	var q request
	if err := json.Unmarshal(rec.Request, &q); err != nil {
		return err
	}
	backend, ok := r.backends[rec.Backend]
	if !ok {
		return &Error{Op: op, ID: id, Code: vfs.EINVAL, Text: fmt.Sprintf("the backend %q is not configured", rec.Backend)}
	}
	info := backend.Info()
	req := &Request{ID: id, Source: q.source(), Cwd: q.Cwd, Input: q.Input, Env: q.Env, Args: q.Args,
		Stdin: q.Stdin, Modules: r.moduleInfo(), Fetch: r.opts.Outbound != nil, Limits: r.opts.Limits, VirtualTime: r.opts.VirtualTime}
	var prog Program
	if rs, ok := backend.(Restorer); ok {
		if snap, err := r.store.Program(ctx, id); err == nil && len(snap) > 0 {
			if prog, err = rs.Restore(ctx, snap, req); err != nil {
				return err
			}
		}
	}
	if prog == nil {
		if prog, err = backend.Prepare(ctx, r.fs, req); err != nil {
			return err
		}
	}
	var want [3][]byte
	for _, e := range evs {
		if e.Kind == journal.Stdout || e.Kind == journal.Stderr {
			want[e.Kind] = append(want[e.Kind], e.Data...)
		}
	}
	var exit exitData
	if len(evs) > 0 && evs[len(evs)-1].Kind == journal.Exit {
		json.Unmarshal(evs[len(evs)-1].Data, &exit)
	}
	// The runtime's own last words (a note on stderr) are not the program's.
	if exit.Error != "" {
		want[Stderr] = bytes.TrimSuffix(want[Stderr], []byte(exit.Error+"\n"))
	}

	timeout := time.Duration(q.Timeout) * time.Millisecond
	vctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	vctx, stop := context.WithTimeout(vctx, timeout)
	defer stop()
	x := &run{rt: r, id: id, backend: info.ID, info: info, limits: r.opts.Limits, policy: PolicyReplay,
		seed: q.Seed, ctx: vctx, cancel: cancel, notify: make(chan struct{})}
	var mu sync.Mutex
	var got [3][]byte
	cfg := HostConfig{FS: r.fs, Root: info.Root, Access: info.Access, RunID: id, Modules: r.opts.Modules,
		Outbound: r.opts.Outbound, Limits: r.opts.Limits, Random: seededRandom(q.Seed),
		Output: func(s Stream, p []byte) error {
			mu.Lock()
			defer mu.Unlock()
			at := len(got[s])
			got[s] = append(got[s], p...)
			if !bytes.HasPrefix(want[s], got[s]) {
				i := at
				for i < len(got[s]) && i < len(want[s]) && got[s][i] == want[s][i] {
					i++
				}
				err := &DivergenceError{Want: fmt.Sprintf("%q", excerpt(want[s], int64(min(i, len(want[s]))))),
					Got: fmt.Sprintf("the %s printed at byte %d was %q", s, i, excerpt(got[s], int64(i)))}
				cancel(err)
				return err
			}
			return nil
		}}
	jh := &journaledHost{x: x, rec: recording, strict: true}
	cfg.Decorate = jh.decorate
	jh.live = NewHost(cfg)
	x.jh = jh
	ex := runProgram(vctx, prog, jh)
	if cause := context.Cause(vctx); vctx.Err() != nil {
		var div *DivergenceError
		if errors.As(cause, &div) {
			return div
		}
		return fmt.Errorf("the verification did not finish: %v", cause)
	}
	for _, s := range []Stream{Stdout, Stderr} {
		if !bytes.Equal(got[s], want[s]) {
			return &DivergenceError{Want: fmt.Sprintf("%d bytes of %s", len(want[s]), s),
				Got: fmt.Sprintf("the replay printed %d", len(got[s]))}
		}
	}
	code := ex.Code
	if code == 0 && ex.Err != nil {
		code = 1
	}
	if code != exit.Code {
		return &DivergenceError{Want: fmt.Sprintf("exit code %d", exit.Code), Got: fmt.Sprintf("the replay exited %d", code)}
	}
	if code == 0 && !bytes.Equal(ex.Value, rec.Value) {
		return &DivergenceError{Want: fmt.Sprintf("the value %s", rec.Value), Got: fmt.Sprintf("the replay returned %s", ex.Value)}
	}
	return nil
}

// ExecRecord is what was asked of a run, as its record keeps it: enough to
// run it again (conformance scenarios are made from it).
type ExecRecord struct {
	ID, Backend string
	// Source is the program (a wasm module's bytes, as a string).
	Source  string
	Cwd     string
	Input   json.RawMessage
	Env     map[string]string
	Args    []string
	Stdin   []byte
	Timeout time.Duration
	Policy  Policy
	// Seed is the random seed of a replay-policy run.
	Seed []byte
}

// Record returns what was asked of run id.
func (r *Runtime) Record(ctx context.Context, id string) (*ExecRecord, error) {
	rec, err := r.store.Get(ctx, id)
	if err != nil {
		return nil, r.notFound("record", id, err)
	}
	var q request
	if err := json.Unmarshal(rec.Request, &q); err != nil {
		return nil, &Error{Op: "record", ID: id, Code: vfs.EIO, Text: "unreadable request: " + err.Error(), Err: err}
	}
	return &ExecRecord{ID: rec.ID, Backend: rec.Backend, Source: q.source(), Cwd: q.Cwd, Input: q.Input, Env: q.Env,
		Args: q.Args, Stdin: q.Stdin, Timeout: time.Duration(q.Timeout) * time.Millisecond, Policy: q.Policy,
		Seed: q.Seed}, nil
}

// ClockReads returns the readings of the guest clock a replay-policy run
// made, in order, as journaled: those of a running run, or of a finished
// one kept with Options.KeepJournal. A scenario exported from the run
// answers its clock reads with them.
func (r *Runtime) ClockReads(ctx context.Context, id string) ([]time.Time, error) {
	if _, err := r.store.Get(ctx, id); err != nil {
		return nil, r.notFound("journal", id, err)
	}
	rec, err := r.store.Recording(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []time.Time
	for _, v := range rec.Ticks[journal.ClockStream] {
		if len(v) != 8 {
			return nil, &Error{Op: "journal", ID: id, Code: vfs.EIO, Text: fmt.Sprintf("clock reading of %d bytes", len(v))}
		}
		out = append(out, time.Unix(0, int64(binary.BigEndian.Uint64(v))).UTC())
	}
	return out, nil
}

// TimerFirings returns the timer firings a replay-policy run journaled, in
// order: those of a running run, or of a finished one kept with
// Options.KeepJournal. A scenario exported from the run passes them as
// ExecOptions.Timers.
func (r *Runtime) TimerFirings(ctx context.Context, id string) ([]TimerFiring, error) {
	if _, err := r.store.Get(ctx, id); err != nil {
		return nil, r.notFound("journal", id, err)
	}
	rec, err := r.store.Recording(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []TimerFiring
	for _, v := range rec.Ticks[journal.TimerStream] {
		var tf TimerFiring
		if err := json.Unmarshal(v, &tf); err != nil {
			return nil, &Error{Op: "journal", ID: id, Code: vfs.EIO, Text: "unreadable timer firing: " + err.Error(), Err: err}
		}
		out = append(out, tf)
	}
	return out, nil
}
