package host

import (
	"context"
	"errors"

	"github.com/nookdev/nook/vfs"
)

// maxChangesPerCall bounds the entries one changes op returns; a caller
// continues from the revision it got.
const maxChangesPerCall = 1000

// changesArgs are the arguments of changes.
type changesArgs struct {
	Since int64 `arg:"since"`
}

// opChanges reads the workspace's change feed, for fs.watch and
// fs.watchFile: {since} → {rev, changes: [{op, path, oldPath?, kind}]}, the
// changes under Root of the revisions after since, oldest first (at most
// maxChangesPerCall, never splitting a revision), and rev, the revision
// to continue from. since < 0 asks only for the current revision. Because
// it is an ordinary fs call, a replay answers it from the journal, so a
// watcher sees the same events in the same order again.
func (o *FSOps) opChanges(ctx context.Context, a *changesArgs) (any, error) {
	since := a.Since
	if since < 0 {
		rev, err := o.FS.Rev(ctx)
		if err != nil {
			return nil, o.vfsErr(err, "watch", o.Root, "")
		}
		return map[string]any{"rev": float64(rev), "changes": []any{}}, nil
	}
	batch, err := o.FS.Changes(ctx, since, maxChangesPerCall)
	if err != nil {
		if errors.Is(err, vfs.EINVAL) {
			// Pruned past since: start again from the head, as a watcher
			// that missed events would after an overflow.
			rev, err := o.FS.Rev(ctx)
			if err != nil {
				return nil, o.vfsErr(err, "watch", o.Root, "")
			}
			return map[string]any{"rev": float64(rev), "changes": []any{}, "overflow": true}, nil
		}
		return nil, o.vfsErr(err, "watch", o.Root, "")
	}
	out := []any{}
	rev := since
	for _, c := range batch {
		rev = c.Rev
		in, inOld := within(c.Path, o.Root), c.OldPath != "" && within(c.OldPath, o.Root)
		if !in && !inOld {
			continue
		}
		m := map[string]any{"op": string(c.Op), "path": c.Path, "kind": c.Kind.String()}
		if !in {
			m["path"] = ""
		}
		if inOld {
			m["oldPath"] = c.OldPath
		}
		out = append(out, m)
	}
	if len(batch) == 0 {
		if head, err := o.FS.Rev(ctx); err == nil && head > rev {
			rev = head
		}
	}
	return map[string]any{"rev": float64(rev), "changes": out}, nil
}
