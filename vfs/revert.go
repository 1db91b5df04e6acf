package vfs

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// ESTALE is the code of a revert refused because a path is no longer as
// the revert expects: something changed it since (see RevertConflict).
const ESTALE Errno = "ESTALE"

// RevertConflict is one path a revert found changed since the state it
// was to take back.
type RevertConflict struct {
	Path string `json:"path"`
	// How says how the path differs now: "created", "deleted" or
	// "modified".
	How string `json:"how"`
}

// ConflictError is the error of a revert that changed nothing because
// paths changed since: it lists them, and its code is ESTALE.
type ConflictError struct {
	Op        string
	Conflicts []RevertConflict
}

// MaxConflictsShown bounds the conflicts a ConflictError's message names
// (all of them stay in Conflicts).
const MaxConflictsShown = 10

func (e *ConflictError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d paths changed since, nothing was reverted:", len(e.Conflicts))
	for i, c := range e.Conflicts {
		if i == MaxConflictsShown {
			fmt.Fprintf(&b, " and %d more", len(e.Conflicts)-i)
			break
		}
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(&b, "%s %s (%s)", sep, c.Path, c.How)
	}
	return b.String()
}

// Unwrap returns the code, so that errors.Is(err, vfs.ESTALE) and
// errors.Is(err, syscall.ESTALE) hold and vfs.Code returns it.
func (e *ConflictError) Unwrap() error { return ESTALE }

// Revert puts paths (and what is below them) back as checkpoint from
// recorded them, in one transaction committed as one revision, provided
// each is now as checkpoint to recorded it. A path that was changed since
// (created, deleted, or its content, kind, mode or links differ) is a
// conflict: then nothing changes and the error is a *ConflictError
// listing every one. It is how a run's changes are undone: from is the
// tree before the run, to the tree after it, paths what it changed.
func (f *FS) Revert(ctx context.Context, from, to string, paths []string) (*RestoreStats, error) {
	const op = "revert"
	set := map[string]bool{}
	for _, p := range paths {
		c, err := f.clean(op, p)
		if err != nil {
			return nil, err
		}
		set[c] = true
	}
	only := func(p string) bool {
		for q := p; ; q, _ = split(q) {
			if set[q] {
				return true
			}
			if q == "/" {
				return false
			}
		}
	}
	st := &RestoreStats{}
	var conflict *ConflictError // returned as it is (update wraps other errors)
	err := f.update(ctx, op, from, func(t *wtx) error {
		if from == "" || to == "" {
			return perr(op, "", EINVAL, "revert needs two checkpoints")
		}
		tFrom, err := resolveTree(t.c, op, from, "/")
		if err != nil {
			return err
		}
		tTo, err := resolveTree(t.c, op, to, "/")
		if err != nil {
			return err
		}
		live, err := liveTree(t.c, "/")
		if err != nil {
			return err
		}
		var conflicts []RevertConflict
		for _, p := range live.paths {
			if !only(p) {
				continue
			}
			cur, want := live.byPath[p], tTo.byPath[p]
			if want == nil {
				conflicts = append(conflicts, RevertConflict{p, "created"})
				continue
			}
			d, err := compare(t.c, tTo, live, want, cur)
			if err != nil {
				return err
			}
			if d.kind || d.mode || d.links || d.content && cur.typ != TypeDir {
				conflicts = append(conflicts, RevertConflict{p, "modified"})
			}
		}
		for _, p := range tTo.paths {
			if only(p) && live.byPath[p] == nil {
				conflicts = append(conflicts, RevertConflict{p, "deleted"})
			}
		}
		if len(conflicts) > 0 {
			slices.SortFunc(conflicts, func(a, b RevertConflict) int { return strings.Compare(a.Path, b.Path) })
			conflict = &ConflictError{Op: op, Conflicts: conflicts}
			return conflict
		}
		if err := t.restoreTree(op, tFrom, live, only, st); err != nil {
			return err
		}
		// The directories holding reverted names get their times back
		// too, unless something else changed them since.
		parents := map[string]bool{}
		for p := range set {
			for q := p; q != "/"; {
				q, _ = split(q)
				if !only(q) {
					parents[q] = true
				}
			}
		}
		for p := range parents {
			was, now, after := tFrom.byPath[p], live.byPath[p], tTo.byPath[p]
			if was == nil || now == nil || after == nil || was.typ != TypeDir || now.typ != TypeDir || now.inode != was.inode ||
				now.mode != was.mode || now.mtime != after.mtime || now.ctime != after.ctime {
				continue
			}
			if err := t.setAttrs(now.inode, was); err != nil {
				return err
			}
		}
		if t.dirty || len(t.changes) > 0 {
			st.Rev = t.rev
		}
		return nil
	})
	if conflict != nil {
		return nil, conflict
	}
	if err != nil {
		return nil, err
	}
	return st, nil
}
