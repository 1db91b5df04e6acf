package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/oklog/ulid/v2"

	"github.com/nookdev/nook/journal"
	"github.com/nookdev/nook/vfs"
)

// Checkpoints of runs: with ExecOptions.Checkpoint (or
// Options.CheckpointRuns) a run is bracketed by two checkpoints of the
// workspace, BeforeCheckpoint(id) and AfterCheckpoint(id), and Undo
// reverts what the run changed between them.

// DefaultMaxRunCheckpoints is how many runs keep their checkpoints
// (Options.MaxRunCheckpoints) unless set.
const DefaultMaxRunCheckpoints = 50

// BeforeCheckpoint names the checkpoint taken before run id started.
func BeforeCheckpoint(id string) string { return "run:" + id + ":before" }

// AfterCheckpoint names the checkpoint taken when run id finished.
func AfterCheckpoint(id string) string { return "run:" + id + ":after" }

// RestoreOptions configure Runtime.Restore.
type RestoreOptions struct {
	// Path limits the restore to the tree at or under it (default: all).
	Path string
	// Force restores even while runs are in flight, which then see their
	// files change under them (and a replay of one may diverge).
	Force bool
}

// Restore puts the workspace's tree (or the subtree at o.Path) back as
// checkpoint name recorded it (vfs.FS.Restore). While a run of any
// process sharing the workspace is in flight (running, or interrupted
// and waiting to be resumed) it fails with EBUSY, naming the run, unless
// o.Force is set.
func (r *Runtime) Restore(ctx context.Context, name string, o RestoreOptions) (*vfs.RestoreStats, error) {
	const op = "restore"
	if !o.Force {
		if err := r.refuseInFlight(ctx, op, "", "restore"); err != nil {
			return nil, err
		}
	}
	return r.fs.Restore(ctx, name, o.Path)
}

// refuseInFlight fails with EBUSY when a run other than self has not
// finished.
func (r *Runtime) refuseInFlight(ctx context.Context, op, self, what string) error {
	runs, err := r.store.List(ctx, journal.ListOptions{Running: true, Limit: 10})
	if err != nil {
		return &Error{Op: op, Code: vfs.EIO, Text: "cannot list the runs: " + err.Error(), Err: err}
	}
	var ids []string
	for _, x := range runs {
		if x.ID != self {
			ids = append(ids, x.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	runsText := "run " + ids[0] + " is"
	if len(ids) > 1 {
		runsText = fmt.Sprintf("runs %s are", strings.Join(ids, ", "))
	}
	return &Error{Op: op, ID: ids[0], Code: EBUSY,
		Text: fmt.Sprintf("cannot %s while %s in flight (wait for it, kill it, or force the %s)", what, runsText, what)}
}

// UndoOptions configure Runtime.Undo.
type UndoOptions struct {
	// Force undoes even while other runs are in flight.
	Force bool
}

// UndoResult says what an undo did.
type UndoResult struct {
	// ID names the undo itself: Undo(ID) takes it back (redo).
	ID string `json:"id"`
	// Run is the run (or undo) that was undone.
	Run string `json:"run"`
	// Paths are the paths reverted, in order.
	Paths []string `json:"paths"`
	// Rev is the revision the undo committed as (0: nothing to change).
	Rev     int64 `json:"rev"`
	Removed int64 `json:"removed"`
	Created int64 `json:"created"`
	Updated int64 `json:"updated"`
}

// Undo reverts exactly what run id changed in the workspace's files: the
// paths its backend reported (Result.Changes), or, for a backend that
// reports none, every path that differs between the checkpoints taken
// before and after it. The run must have been started with
// ExecOptions.Checkpoint (or Options.CheckpointRuns) and have finished
// (EBUSY otherwise, as while other runs are in flight, unless o.Force).
// When a path it changed was changed again since, nothing is reverted and
// the error is a *vfs.ConflictError (ESTALE) listing every such path.
// Content, modes, times, symlinks and hard links come back exactly, in
// one revision.
//
// An undo is undoable: it is bracketed by checkpoints of its own, named
// after UndoResult.ID, and Undo(that ID) puts back what it reverted.
func (r *Runtime) Undo(ctx context.Context, id string, o UndoOptions) (*UndoResult, error) {
	const op = "undo"
	rec, err := r.store.Get(ctx, id)
	switch {
	case errors.Is(err, journal.ErrNotFound):
		rec = nil // an undo, or a run disposed of: its checkpoints say
	case err != nil:
		return nil, &Error{Op: op, ID: id, Code: vfs.EIO, Text: "cannot read the run: " + err.Error(), Err: err}
	case rec.Status == journal.Running:
		return nil, &Error{Op: op, ID: id, Code: EBUSY, Text: fmt.Sprintf("run %s has not finished: it cannot be undone yet", id)}
	}
	if !o.Force {
		if err := r.refuseInFlight(ctx, op, id, "undo"); err != nil {
			return nil, err
		}
	}
	before, after := BeforeCheckpoint(id), AfterCheckpoint(id)
	if err := r.haveCheckpoints(ctx, op, id, before, after); err != nil {
		return nil, err
	}
	paths, err := r.changedPaths(ctx, rec, before, after)
	if err != nil {
		return nil, err
	}
	res := &UndoResult{ID: "undo-" + ulid.Make().String(), Run: id, Paths: paths}
	if err := r.checkpoint(ctx, op, BeforeCheckpoint(res.ID)); err != nil {
		return nil, err
	}
	st, err := r.fs.Revert(ctx, before, after, paths)
	if err != nil {
		r.fs.DeleteCheckpoint(context.WithoutCancel(ctx), BeforeCheckpoint(res.ID))
		return nil, err
	}
	if err := r.checkpoint(ctx, op, AfterCheckpoint(res.ID)); err != nil {
		return nil, err
	}
	r.pruneRunCheckpoints(ctx)
	res.Rev, res.Removed, res.Created, res.Updated = st.Rev, st.Removed, st.Created, st.Updated
	return res, nil
}

// haveCheckpoints fails with ENOENT unless both of a run's checkpoints
// exist.
func (r *Runtime) haveCheckpoints(ctx context.Context, op, id, before, after string) error {
	cks, err := r.fs.Checkpoints(ctx)
	if err != nil {
		return err
	}
	has := map[string]bool{}
	for _, c := range cks {
		has[c.Name] = true
	}
	switch {
	case has[before] && has[after]:
		return nil
	case has[before]:
		return &Error{Op: op, ID: id, Code: vfs.ENOENT, Text: fmt.Sprintf("run %s has no checkpoint %s (it did not finish in the process that started it)", id, after)}
	}
	return &Error{Op: op, ID: id, Code: vfs.ENOENT,
		Text: fmt.Sprintf("run %s has no checkpoints: it was not started with Checkpoint, or they were pruned (limit MaxRunCheckpoints, %d runs)", id, r.opts.MaxRunCheckpoints)}
}

// changedPaths lists the paths a run changed: those its backend
// reported, else those that differ between its checkpoints.
func (r *Runtime) changedPaths(ctx context.Context, rec *journal.Run, before, after string) ([]string, error) {
	set := map[string]bool{}
	if rec != nil && len(rec.Changes) > 0 {
		var ch Changes
		if err := json.Unmarshal(rec.Changes, &ch); err == nil {
			for _, l := range [][]string{ch.Created, ch.Updated, ch.Deleted, ch.DirsCreated, ch.DirsDeleted} {
				for _, p := range l {
					set[p] = true
				}
			}
		}
	} else {
		diff, err := r.fs.Diff(ctx, before, after, nil)
		if err != nil {
			return nil, err
		}
		for _, d := range diff {
			set[d.Path] = true
			if d.OldPath != "" {
				set[d.OldPath] = true
			}
		}
	}
	// A run's own output files are not its changes to the workspace.
	var out []string
	for p := range set {
		if p != r.opts.OutputDir && !strings.HasPrefix(p, r.opts.OutputDir+"/") {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out, nil
}

// checkpoint takes a checkpoint, as a runtime error on failure.
func (r *Runtime) checkpoint(ctx context.Context, op, name string) error {
	if _, err := r.fs.Checkpoint(ctx, name); err != nil {
		return &Error{Op: op, Code: vfs.Code(err), Text: "cannot take checkpoint " + name + ": " + err.Error(), Err: err}
	}
	return nil
}

// pruneRunCheckpoints deletes the checkpoints of the oldest runs (and
// undos) beyond Options.MaxRunCheckpoints.
func (r *Runtime) pruneRunCheckpoints(ctx context.Context) {
	cks, err := r.fs.Checkpoints(ctx)
	if err != nil {
		return
	}
	var runs []string // run ids, oldest first (by their before checkpoint)
	for _, c := range cks {
		if id, ok := strings.CutSuffix(c.Name, ":before"); ok && strings.HasPrefix(id, "run:") {
			runs = append(runs, id[len("run:"):])
		}
	}
	ctx = context.WithoutCancel(ctx)
	for _, id := range runs[:max(0, len(runs)-r.opts.MaxRunCheckpoints)] {
		r.fs.DeleteCheckpoint(ctx, BeforeCheckpoint(id))
		r.fs.DeleteCheckpoint(ctx, AfterCheckpoint(id))
	}
}

// ForkOptions configure Runtime.Fork.
type ForkOptions struct {
	// Force forks even while runs are in flight: the fork then holds
	// them as interrupted runs of a process that is gone.
	Force bool
}

// Fork writes a new workspace database at path whose files are exactly
// checkpoint name's (vfs.FS.Fork), refusing with EBUSY while a run of
// any process is in flight, unless o.Force.
func (r *Runtime) Fork(ctx context.Context, name, path string, o ForkOptions) (*vfs.ForkStats, error) {
	if !o.Force {
		if err := r.refuseInFlight(ctx, "fork", "", "fork"); err != nil {
			return nil, err
		}
	}
	return r.fs.Fork(ctx, name, path)
}

// Bracket makes an operation outside any run (a tool call) undoable: it
// takes the checkpoint before it under a new id (prefix, "-" and a ULID)
// and returns done, which takes the one after it. Undo(id) then reverts
// every path that differs between the two (what else was written
// meanwhile included). The checkpoints count towards MaxRunCheckpoints.
func (r *Runtime) Bracket(ctx context.Context, prefix string) (id string, done func(), err error) {
	id = prefix + "-" + ulid.Make().String()
	if err := r.checkpoint(ctx, "bracket", BeforeCheckpoint(id)); err != nil {
		return "", nil, err
	}
	return id, func() {
		ctx := context.WithoutCancel(ctx)
		if err := r.checkpoint(ctx, "bracket", AfterCheckpoint(id)); err != nil {
			r.opts.Logger.ErrorContext(ctx, "nook: the checkpoint after an operation failed; it cannot be undone", "id", id, "err", err)
		}
		r.pruneRunCheckpoints(ctx)
	}, nil
}
