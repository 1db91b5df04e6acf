package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nookdev/nook/journal"
)

// maxRecovering bounds the interrupted runs Recover runs at once.
const maxRecovering = 4

// Recover resumes the interrupted runs of the workspace: runs whose process
// died (or whose runtime closed) before they finished. Runs with the fail
// policy are failed; runs with the restart or replay policy start a new
// attempt in this process, at most four at a time (Recover returns once the
// last has started; follow them with GetExec). A run owned by a live
// process is never taken. It returns the ids of the runs it resumed.
func (r *Runtime) Recover(ctx context.Context) ([]string, error) {
	orphans, err := r.store.Orphans(ctx, r.opts.Now())
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, o := range orphans {
		if p := Policy(o.Policy); p != PolicyRestart && p != PolicyReplay {
			r.finishOrphan(ctx, o)
			continue
		}
		select {
		case r.recovering <- struct{}{}:
		case <-ctx.Done():
			return ids, ctx.Err()
		}
		started, err := r.resumeRun(ctx, o, func() { <-r.recovering }, nil)
		if !started {
			<-r.recovering
		}
		if err != nil {
			return ids, err
		}
		if started {
			ids = append(ids, o.ID)
		}
	}
	return ids, nil
}

// resume resumes one interrupted run, if its policy allows.
func (r *Runtime) resume(ctx context.Context, rec *journal.Run) error {
	_, err := r.resumeRun(ctx, rec, nil, nil)
	return err
}

// resumeRun claims an interrupted run and starts its next attempt. It
// reports whether an attempt started; release is called when it ends. prev,
// when not nil, is the attempt of this runtime that was interrupted (its
// sandbox process died): the new attempt takes its place.
func (r *Runtime) resumeRun(ctx context.Context, rec *journal.Run, release func(), prev *run) (bool, error) {
	policy := Policy(rec.Policy)
	if policy != PolicyRestart && policy != PolicyReplay {
		return false, r.finishOrphan(ctx, rec)
	}
	if rec.Waiting {
		return false, nil
	}
	// Reserve the run in memory before claiming it, as Exec does, so a
	// reader of this runtime polling meanwhile sees it as running here
	// rather than as a run of ours whose end was lost.
	x := &run{rt: r, id: rec.ID, notify: make(chan struct{})}
	if prev != nil {
		x.tree = prev.tree // a new attempt stays in its tree
	}
	r.mu.Lock()
	if cur := r.runs[rec.ID]; r.closed || cur != nil && cur != prev {
		r.mu.Unlock()
		return false, nil
	}
	r.runs[rec.ID] = x
	r.mu.Unlock()
	started := false
	defer func() {
		if !started {
			r.mu.Lock()
			delete(r.runs, rec.ID)
			r.mu.Unlock()
			x.wakeReaders()
		}
	}()
	attempts, ok, err := r.store.Claim(ctx, rec.ID, rec.Owner, r.owner)
	if err != nil || !ok {
		return false, err
	}
	rec, err = r.store.Get(ctx, rec.ID)
	if err != nil {
		return false, err
	}
	if attempts > MaxAttempts {
		return false, r.finishRecord(ctx, rec, StatusFailed, 1, errNoAttempts.Error())
	}
	var q request
	if err := json.Unmarshal(rec.Request, &q); err != nil {
		return false, r.finishRecord(ctx, rec, StatusFailed, 1, "Execution could not resume: its request is unreadable.")
	}
	backend, ok := r.backends[rec.Backend]
	if !ok {
		return false, r.finishRecord(ctx, rec, StatusFailed, 1,
			fmt.Sprintf("Execution could not resume: the backend %q is not configured any more.", rec.Backend))
	}
	info := backend.Info()
	nest := q.nesting()
	nest.confine(&info)
	timeout := time.Duration(q.Timeout) * time.Millisecond
	remaining := timeout - (r.opts.Now().Sub(rec.Created) - rec.Waited)
	if remaining <= 0 {
		return false, r.finishRecord(ctx, rec, StatusTimedOut, ExitTimedOut,
			fmt.Sprintf("Execution timed out after %s (limit Timeout).", timeout))
	}
	req := &Request{ID: rec.ID, Source: q.source(), Cwd: q.Cwd, Input: q.Input, Env: q.Env, Args: q.Args,
		Stdin: q.Stdin, Modules: r.moduleInfo(), Fetch: r.opts.Outbound != nil, Limits: r.opts.Limits,
		Entry: q.Entry, VirtualTime: r.opts.VirtualTime}
	var prog Program
	if rs, ok := backend.(Restorer); ok && policy == PolicyReplay {
		if snap, err := r.store.Program(ctx, rec.ID); err == nil && len(snap) > 0 {
			prog, err = rs.Restore(ctx, snap, req)
			if err != nil {
				return false, r.finishRecord(ctx, rec, StatusFailed, 1, "Execution could not resume: "+err.Error())
			}
		}
	}
	if prog == nil {
		if prog, err = backend.Prepare(ctx, r.fs, req); err != nil {
			return false, r.finishRecord(ctx, rec, StatusFailed, 1, "Execution could not resume: "+err.Error())
		}
	}
	loaded, evs, err := r.store.Load(ctx, rec.ID)
	if err != nil {
		return false, err
	}
	rs := &resumeState{rec: loaded, replay: policy == PolicyReplay}
	for _, e := range evs {
		switch e.Kind {
		case journal.Stdout, journal.Stderr:
			rs.stored[e.Kind] = append(rs.stored[e.Kind], e.Data...)
		case journal.Truncated:
			rs.spill = true
		}
	}
	x.backend, x.info, x.encoding, x.limits = info.ID, info, q.Encoding, r.opts.Limits
	x.created, x.policy, x.seed, x.resumed, x.release, x.fullTimeout = rec.Created, policy, q.Seed, rs, release, timeout
	x.depth, x.attempt = q.Depth, attempts
	if x.tree == "" {
		x.tree = r.treeOf(nest, rec.ID)
	}
	req.Tree = x.tree
	x.timers = q.Timers
	if policy == PolicyReplay {
		if x.replay, err = r.store.Recording(ctx, rec.ID); err != nil {
			return false, err
		}
	}
	if !x.start(ctx, prog, req, remaining) {
		return false, nil
	}
	started = true
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return true, nil
}

// finishRecord ends a run that is not running in any process, appending
// note to its stderr.
func (r *Runtime) finishRecord(ctx context.Context, o *journal.Run, status Status, code int, note string) error {
	msg := []byte(note + "\n")
	p := journal.Progress{StdoutBytes: o.StdoutBytes, StderrBytes: o.StderrBytes + int64(len(msg)),
		StdoutPath: o.StdoutPath, StderrPath: o.StderrPath}
	exit := exitData{Status: status, Code: code, Error: note}
	evs := []journal.Event{
		{Seq: o.LastSeq + 1, Kind: journal.Stderr, Data: msg},
		{Seq: o.LastSeq + 2, Kind: journal.Exit, Data: exit.json()},
	}
	gone, err := r.store.Finish(ctx, o.ID, evs, p, journal.Final{Status: string(status), ExitCode: code,
		Error: note, Finished: r.opts.Now()}, r.retain())
	for _, g := range gone {
		r.removeOutput(ctx, g.ID)
	}
	return err
}
