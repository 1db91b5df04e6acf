package vfs

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/nookdev/nook/internal/sqldb"
)

// Changes returns the change-feed entries of revisions after sinceRev, in
// order, at most limit of them (0 means DefaultPage). A revision with more
// entries than fit spans pages: continue with [FS.ChangesAfter] from the
// last entry's Seq. A sinceRev older than the oldest kept entry (GC prunes
// beyond Limits.MaxChanges) is EINVAL, since changes in between are lost;
// start again from a fresh listing then.
func (f *FS) Changes(ctx context.Context, sinceRev int64, limit int) ([]Change, error) {
	return f.changes(ctx, "changes", sinceRev, -1, limit)
}

// ChangesAfter returns the change-feed entries whose Seq is greater than
// afterSeq, in order, at most limit of them (0 means DefaultPage): the way
// to page through the feed, a revision's entries included. An afterSeq
// older than the oldest kept entry is EINVAL, as for Changes.
func (f *FS) ChangesAfter(ctx context.Context, afterSeq int64, limit int) ([]Change, error) {
	return f.changes(ctx, "changes", -1, afterSeq, limit)
}

// RecentChanges returns the change-feed entries whose Seq is below
// beforeSeq (0: from the newest), newest first, at most limit of them (0
// means DefaultPage): the way to show the feed's end and page back through
// it. Only kept entries are returned; older ones were pruned.
func (f *FS) RecentChanges(ctx context.Context, beforeSeq int64, limit int) ([]Change, error) {
	const op = "changes"
	if limit < 0 {
		return nil, perr(op, "", EINVAL, fmt.Sprintf("limit must be a non-negative integer, got %d", limit))
	}
	if limit == 0 {
		limit = DefaultPage
	}
	limit = min(limit, f.lim.MaxPage)
	if beforeSeq <= 0 {
		beforeSeq = math.MaxInt64
	}
	var out []Change
	err := f.view(ctx, op, "", func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT seq, rev, op, path, coalesce(old_path, ''), type, time FROM vfs_changes
			WHERE seq < ? ORDER BY seq DESC LIMIT ?`, beforeSeq, limit)
		if err != nil {
			return err
		}
		out, err = scanChanges(s)
		return err
	})
	return out, err
}

// PathChanges returns the change-feed entries whose Path or OldPath is
// exactly path (a rename or link to or from it included) and whose Seq is
// below beforeSeq (0: from the newest), newest first, at most limit of
// them (0 means DefaultPage; a negative limit is EINVAL): one path's
// history, paged back like [FS.RecentChanges]. Entries are matched by
// name, not by node: a directory's rename is one entry under the
// directory's paths, not under its children's. Only kept entries are
// returned; older ones were pruned.
func (f *FS) PathChanges(ctx context.Context, path string, beforeSeq int64, limit int) ([]Change, error) {
	const op = "changes"
	p, err := f.clean(op, path)
	if err != nil {
		return nil, err
	}
	if limit < 0 {
		return nil, perr(op, p, EINVAL, fmt.Sprintf("limit must be a non-negative integer, got %d", limit))
	}
	if limit == 0 {
		limit = DefaultPage
	}
	limit = min(limit, f.lim.MaxPage)
	if beforeSeq <= 0 {
		beforeSeq = math.MaxInt64
	}
	var out []Change
	err = f.view(ctx, op, p, func(c *sqldb.Conn) error {
		// Each arm reads its index backwards from beforeSeq and stops at
		// limit; UNION drops the one row both could give (a rename of a
		// path onto itself).
		s, err := c.Query(pathChangesQuery, p, beforeSeq, limit)
		if err != nil {
			return err
		}
		out, err = scanChanges(s)
		return err
	})
	return out, err
}

const pathChangesQuery = `SELECT * FROM (SELECT seq, rev, op, path, coalesce(old_path, ''), type, time FROM vfs_changes
		WHERE path = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT ?3)
	UNION SELECT * FROM (SELECT seq, rev, op, path, coalesce(old_path, ''), type, time FROM vfs_changes
		WHERE old_path = ?1 AND seq < ?2 ORDER BY seq DESC LIMIT ?3)
	ORDER BY 1 DESC LIMIT ?3`

// changes reads one page of the feed after a revision (sinceRev >= 0) or
// after a seq.
func (f *FS) changes(ctx context.Context, op string, sinceRev, afterSeq int64, limit int) ([]Change, error) {
	if limit < 0 {
		return nil, perr(op, "", EINVAL, fmt.Sprintf("limit must be a non-negative integer, got %d", limit))
	}
	if limit == 0 {
		limit = DefaultPage
	}
	limit = min(limit, f.lim.MaxPage)
	var out []Change
	err := f.view(ctx, op, "", func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT pruned, pruned_seq FROM vfs_state WHERE id = 1`)
		if err != nil {
			return err
		}
		var pruned, prunedSeq int64
		if s.Step() {
			pruned, prunedSeq = s.ColumnInt64(0), s.ColumnInt64(1)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		if sinceRev >= 0 {
			if sinceRev < pruned {
				return perr(op, "", EINVAL, fmt.Sprintf("changes up to revision %d were pruned (asked from %d)", pruned, sinceRev))
			}
			s, err = c.Query(`SELECT seq, rev, op, path, coalesce(old_path, ''), type, time FROM vfs_changes
				WHERE rev > ? ORDER BY rev, seq LIMIT ?`, sinceRev, limit)
		} else {
			if afterSeq < prunedSeq {
				return perr(op, "", EINVAL, fmt.Sprintf("changes up to seq %d were pruned (asked from %d)", prunedSeq, afterSeq))
			}
			s, err = c.Query(`SELECT seq, rev, op, path, coalesce(old_path, ''), type, time FROM vfs_changes
				WHERE seq > ? ORDER BY seq LIMIT ?`, afterSeq, limit)
		}
		if err != nil {
			return err
		}
		out, err = scanChanges(s)
		return err
	})
	return out, err
}

// WatchPoll is how often Watch looks for changes made by other processes.
const WatchPoll = 100 * time.Millisecond

// Watch delivers every change after sinceRev, then each new change as it
// commits (in this process at once, from other processes within WatchPoll),
// until ctx ends; then the channel closes. A watcher that falls too far
// behind the pruned feed gets no more changes and its channel closes.
func (f *FS) Watch(ctx context.Context, sinceRev int64) <-chan Change {
	ch := make(chan Change, 64)
	go func() {
		defer close(ch)
		tick := time.NewTicker(WatchPoll)
		defer tick.Stop()
		afterSeq := int64(-1) // until the first entry: read by revision
		for {
			wake := f.waitChan()
			var batch []Change
			var err error
			if afterSeq < 0 {
				batch, err = f.Changes(ctx, sinceRev, 0)
			} else {
				batch, err = f.ChangesAfter(ctx, afterSeq, 0)
			}
			if err != nil {
				return
			}
			for _, c := range batch {
				select {
				case ch <- c:
					afterSeq = c.Seq
				case <-ctx.Done():
					return
				}
			}
			if len(batch) > 0 {
				continue
			}
			select {
			case <-wake:
			case <-tick.C:
			case <-ctx.Done():
				return
			}
		}
	}()
	return ch
}

// scanChanges reads the rows of a query of the feed's columns (seq, rev,
// op, path, old_path, type, time) and finishes the statement.
func scanChanges(s *sqlite3.Stmt) ([]Change, error) {
	var out []Change
	for s.Step() {
		out = append(out, Change{Seq: s.ColumnInt64(0), Rev: s.ColumnInt64(1), Op: ChangeOp(s.ColumnText(2)),
			Path: s.ColumnText(3), OldPath: s.ColumnText(4), Kind: Type(s.ColumnInt64(5)), Time: nsTime(s.ColumnInt64(6))})
	}
	return out, sqldb.Done(s, nil)
}
