package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nookdev/nook/journal"
	"github.com/nookdev/nook/vfs"
)

// EventKind says what an Event carries.
type EventKind int

// The kinds of events of a run.
const (
	// EventStdout and EventStderr carry output.
	EventStdout EventKind = EventKind(journal.Stdout)
	EventStderr EventKind = EventKind(journal.Stderr)
	// EventTruncated marks the end of stored output: later output is only
	// in the files the event names (Event.Paths).
	EventTruncated EventKind = EventKind(journal.Truncated)
	// EventExit is the last event of every run.
	EventExit EventKind = EventKind(journal.Exit)
)

func (k EventKind) String() string {
	switch k {
	case EventStdout:
		return "stdout"
	case EventStderr:
		return "stderr"
	case EventTruncated:
		return "truncated"
	case EventExit:
		return "exit"
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// Event is one event of a run. Seq numbers start at 1 and increase by one.
type Event struct {
	Seq  int64
	Kind EventKind
	// Data is the output of a stdout or stderr event.
	Data []byte
	// Paths names the full-output files of a truncated event, by stream
	// ("stdout", "stderr").
	Paths map[string]string
	// Exit events: how the run ended.
	Status   Status
	ExitCode int
	Value    json.RawMessage
}

// Result is the outcome of a finished run.
type Result struct {
	ID      string
	Backend string
	// Status is completed, failed, cancelled or timed_out.
	Status   Status
	ExitCode int
	// Stdout and Stderr are the run's output as stored; when Truncated,
	// they hold only the beginning, and StdoutPath/StderrPath name the
	// workspace files that hold all of each stream.
	Stdout, Stderr         []byte
	Truncated              bool
	StdoutPath, StderrPath string
	// StdoutBytes and StderrBytes count all output, stored or not.
	StdoutBytes, StderrBytes int64
	// OutputError, when set, says that the output could not be kept in
	// full: a spill file could not be written (the workspace is full, say)
	// and holds only the beginning of its stream.
	OutputError string
	// Value is the JSON of a callable program's result.
	Value json.RawMessage
	// Changes lists the files the run changed, when its backend reports
	// them (the shell does), whatever its status.
	Changes *Changes
	// Error says why the run did not complete (empty when it did).
	Error    string
	Created  time.Time
	Finished time.Time
}

// Handle follows one run. Next streams its events from a cursor; Result
// waits for the end. A Handle is not safe for concurrent use; take one per
// reader (GetExec).
type Handle struct {
	// ID and Backend identify the run.
	ID      string
	Backend string

	rt     *Runtime
	cursor int64
	buf    []Event
	done   bool
}

// pollInterval is how often a handle re-reads the record of a run that
// runs in another process.
const pollInterval = 25 * time.Millisecond

// Cursor returns the sequence number of the last event Next returned.
func (h *Handle) Cursor() int64 { return h.cursor }

// Next returns the run's next event, waiting for it. After the exit event
// it returns io.EOF.
func (h *Handle) Next(ctx context.Context) (Event, error) {
	for {
		if len(h.buf) > 0 {
			e := h.buf[0]
			h.buf = h.buf[1:]
			h.cursor = e.Seq
			if e.Kind == EventExit {
				h.done = true
			}
			return e, nil
		}
		if h.done {
			return Event{}, io.EOF
		}
		// Take the wake-up channel before reading, so an event stored
		// in between is not missed.
		wait, local := h.rt.waitFor(h.ID)
		evs, err := h.rt.store.Events(ctx, h.ID, h.cursor, 256)
		if err != nil {
			return Event{}, err
		}
		if len(evs) > 0 {
			for _, e := range evs {
				h.buf = append(h.buf, decodeEvent(e))
			}
			continue
		}
		if !local {
			// Not running here: it finished, runs in another process,
			// or was orphaned by a dead one.
			rec, err := h.rt.store.Get(ctx, h.ID)
			if err != nil {
				return Event{}, h.rt.notFound("getexec", h.ID, err)
			}
			if !rec.Finished.IsZero() {
				if rec.LastSeq <= h.cursor {
					h.done = true
				}
				continue
			}
			if err := h.rt.checkOwner(ctx, rec); err != nil {
				return Event{}, err
			}
		}
		t := time.NewTimer(pollInterval)
		select {
		case <-ctx.Done():
			t.Stop()
			return Event{}, ctx.Err()
		case <-wait:
		case <-t.C:
		}
		t.Stop()
	}
}

func decodeEvent(e journal.Event) Event {
	ev := Event{Seq: e.Seq, Kind: EventKind(e.Kind)}
	switch e.Kind {
	case journal.Stdout, journal.Stderr:
		ev.Data = e.Data
	case journal.Truncated:
		json.Unmarshal(e.Data, &ev.Paths)
	case journal.Exit:
		var x exitData
		json.Unmarshal(e.Data, &x)
		ev.Status, ev.ExitCode, ev.Value = x.Status, x.Code, x.Value
	}
	return ev
}

// Wait waits for the run to finish, without reading its events.
func (h *Handle) Wait(ctx context.Context) error {
	_, err := h.wait(ctx, false)
	return err
}

// wait waits for the run to finish. A run of this process is waited for
// in memory; any other is polled. With load, it returns the finished
// record and its events, read in one transaction.
func (h *Handle) wait(ctx context.Context, load bool) (*loaded, error) {
	for {
		wait, local := h.rt.waitFor(h.ID)
		if local {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-wait:
			}
			continue
		}
		var l *loaded
		var err error
		if load {
			l, err = h.rt.load(ctx, h.ID)
		} else {
			var rec *journal.Run
			rec, err = h.rt.store.Get(ctx, h.ID)
			l = &loaded{rec: rec}
		}
		if err != nil {
			return nil, h.rt.notFound("getexec", h.ID, err)
		}
		if !l.rec.Finished.IsZero() {
			return l, nil
		}
		if err := h.rt.checkOwner(ctx, l.rec); err != nil {
			return nil, err
		}
		t := time.NewTimer(pollInterval)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// Result waits for the run to finish and returns its outcome, with all
// its stored output (whatever this handle has streamed so far).
func (h *Handle) Result(ctx context.Context) (*Result, error) {
	l, err := h.wait(ctx, true)
	if err != nil {
		return nil, err
	}
	return l.result(), nil
}

// Kill stops the run (see Runtime.KillExec).
func (h *Handle) Kill(ctx context.Context) error { return h.rt.KillExec(ctx, h.ID) }

// loaded is a run's record with its events.
type loaded struct {
	rec *journal.Run
	evs []journal.Event
}

// load reads a run's record and all its events in one transaction.
func (r *Runtime) load(ctx context.Context, id string) (*loaded, error) {
	rec, evs, err := r.store.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	return &loaded{rec: rec, evs: evs}, nil
}

// result builds the Result of a finished run.
func (l *loaded) result() *Result {
	rec := l.rec
	res := &Result{ID: rec.ID, Backend: rec.Backend, Status: Status(rec.Status), ExitCode: rec.ExitCode,
		Value: rec.Value, Error: rec.Error, Created: rec.Created, Finished: rec.Finished,
		StdoutBytes: rec.StdoutBytes, StderrBytes: rec.StderrBytes,
		StdoutPath: rec.StdoutPath, StderrPath: rec.StderrPath, OutputError: rec.OutputError,
		Stdout: []byte{}, Stderr: []byte{}}
	if len(rec.Changes) > 0 {
		res.Changes = new(Changes)
		json.Unmarshal(rec.Changes, res.Changes)
	}
	for _, e := range l.evs {
		switch e.Kind {
		case journal.Stdout:
			res.Stdout = append(res.Stdout, e.Data...)
		case journal.Stderr:
			res.Stderr = append(res.Stderr, e.Data...)
		case journal.Truncated:
			res.Truncated = true
		}
	}
	return res
}

// waitFor returns a channel closed when a run of this process stores
// events or finishes, and whether the run is running here.
func (r *Runtime) waitFor(id string) (<-chan struct{}, bool) {
	r.mu.Lock()
	x := r.runs[id]
	r.mu.Unlock()
	if x == nil {
		return nil, false
	}
	ch, finished := x.waitChan()
	return ch, !finished
}

// checkOwner deals with a run that no live runtime is running: one whose
// owner died is resumed here (restart and replay policies) or failed; one
// waiting for an answer is left waiting.
func (r *Runtime) checkOwner(ctx context.Context, rec *journal.Run) error {
	if rec.Waiting {
		return nil
	}
	if rec.Owner == r.owner {
		// Ours but not in memory: its goroutine finished but could not
		// store the end; nothing will, so fail it.
		r.mu.Lock()
		_, live := r.runs[rec.ID]
		r.mu.Unlock()
		if live {
			return nil
		}
		return r.finishOrphan(ctx, rec)
	}
	alive, err := r.store.Alive(ctx, rec.Owner, r.opts.Now())
	if err != nil || alive {
		return err
	}
	return r.resume(ctx, rec)
}

func (r *Runtime) notFound(op, id string, err error) error {
	if errors.Is(err, journal.ErrNotFound) {
		return &Error{Op: op, ID: id, Code: vfs.ENOENT, Text: fmt.Sprintf("no such run: %s", id), Err: err}
	}
	return err
}

// GetOptions select where a re-attached handle starts.
type GetOptions struct {
	// After is the sequence number of the last event already seen: Next
	// returns events after it (0: from the start).
	After int64
	// Tail starts after the newest stored event.
	Tail bool
}

// GetExec re-attaches to a run by id: a run of this process, of another
// process sharing the workspace, or one that finished and is retained. It
// fails with ENOENT for an unknown run.
func (r *Runtime) GetExec(ctx context.Context, id string, o GetOptions) (*Handle, error) {
	rec, err := r.store.Get(ctx, id)
	if err != nil {
		return nil, r.notFound("getexec", id, err)
	}
	h := &Handle{ID: id, Backend: rec.Backend, rt: r, cursor: o.After}
	if o.Tail {
		h.cursor = rec.LastSeq
	}
	r.prune(ctx, false)
	return h, nil
}

// KillExec stops a running run (also one waiting for an answer): it ends as
// cancelled, exit code 130, with "Execution cancelled." on stderr. A run of another process is stopped by
// that process within a fraction of a second. Killing a finished run does
// nothing; an unknown run fails with ENOENT.
func (r *Runtime) KillExec(ctx context.Context, id string) error {
	if r.killLocal(id) {
		return nil
	}
	if rec, err := r.store.Get(ctx, id); err == nil && rec.Waiting && rec.Finished.IsZero() {
		// Waiting for an answer: no process runs it.
		return r.finishRecord(ctx, rec, StatusCancelled, ExitCancelled, "Execution cancelled.")
	}
	_, err := r.store.RequestKill(ctx, id)
	if err != nil {
		return r.notFound("kill", id, err)
	}
	return nil
}

func (r *Runtime) killLocal(id string) bool {
	r.mu.Lock()
	var cancel context.CancelCauseFunc
	if x := r.runs[id]; x != nil {
		cancel = x.cancel
	}
	r.mu.Unlock()
	if cancel == nil {
		return false
	}
	cancel(errKilled)
	return true
}

// DisposeExec deletes a finished run's record, output and output files.
// A running run fails with EBUSY, an unknown one with ENOENT.
func (r *Runtime) DisposeExec(ctx context.Context, id string) error {
	_, err := r.store.Delete(ctx, id)
	if errors.Is(err, journal.ErrRunning) {
		return &Error{Op: "dispose", ID: id, Code: EBUSY, Text: fmt.Sprintf("run %s is still running", id)}
	}
	if err != nil {
		return r.notFound("dispose", id, err)
	}
	r.removeOutput(ctx, id)
	return nil
}

// RunInfo summarises a run for listings.
type RunInfo struct {
	ID       string
	Backend  string
	Status   Status
	ExitCode int
	Created  time.Time
	Finished time.Time // zero while running
	// StdoutBytes and StderrBytes count its output so far.
	StdoutBytes, StderrBytes int64
	// Parent is the run that started this one, for a nested run (a
	// KindExec call: child_process, the shell's node); empty otherwise.
	Parent string
	// Policy is what happens to the run when it is interrupted.
	Policy Policy
}

// Runs lists retained and running runs, newest first, at most limit
// (default 100).
func (r *Runtime) Runs(ctx context.Context, limit int) ([]RunInfo, error) {
	return r.ListRuns(ctx, ListRunsOptions{Limit: limit})
}

// ListRunsOptions select a page of runs for ListRuns.
type ListRunsOptions struct {
	// Status, when set, lists only the runs with this status
	// (StatusRunning for the unfinished ones).
	Status Status
	// Backend, when set, lists only the runs of this backend.
	Backend string
	// Offset skips that many of the newest matching runs; Limit bounds
	// the page (default 100).
	Offset, Limit int
}

// ListRuns lists retained and running runs, newest first, filtered and
// paged by o. A page costs its rows: the runs come from an index on their
// creation time.
func (r *Runtime) ListRuns(ctx context.Context, o ListRunsOptions) ([]RunInfo, error) {
	lo := journal.ListOptions{Backend: o.Backend, Offset: o.Offset, Limit: o.Limit}
	if o.Status == StatusRunning {
		lo.Running = true
	} else {
		lo.Status = string(o.Status)
	}
	recs, err := r.store.List(ctx, lo)
	if err != nil {
		return nil, err
	}
	out := make([]RunInfo, len(recs))
	for i, rec := range recs {
		out[i] = runInfoOf(rec)
	}
	return out, nil
}

// Info returns the listing entry of run id, retained or running; an
// unknown run is an error wrapping ENOENT.
func (r *Runtime) Info(ctx context.Context, id string) (RunInfo, error) {
	rec, err := r.store.Get(ctx, id)
	if err != nil {
		return RunInfo{}, r.notFound("info", id, err)
	}
	return runInfoOf(rec), nil
}

func runInfoOf(rec *journal.Run) RunInfo {
	info := RunInfo{ID: rec.ID, Backend: rec.Backend, Status: Status(rec.Status), ExitCode: rec.ExitCode,
		Created: rec.Created, Finished: rec.Finished, StdoutBytes: rec.StdoutBytes, StderrBytes: rec.StderrBytes,
		Policy: Policy(rec.Policy)}
	if info.Policy == "" {
		info.Policy = PolicyFail
	}
	var q struct {
		Parent string `json:"parent"`
	}
	if json.Unmarshal(rec.Request, &q) == nil {
		info.Parent = q.Parent
	}
	return info
}
