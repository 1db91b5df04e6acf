package vfs

import (
	"context"
	"fmt"
	"time"

	"github.com/nookdev/nook/internal/sqldb"
)

// Changes returns the change-feed entries of revisions after sinceRev, in
// order, at most limit of them (0 means DefaultPage) but never splitting a
// revision: pass the last entry's Rev to continue. A sinceRev older than the
// oldest kept entry (GC prunes beyond Limits.MaxChanges) is EINVAL, since
// changes in between are lost; start again from a fresh listing then.
func (f *FS) Changes(ctx context.Context, sinceRev int64, limit int) ([]Change, error) {
	const op = "changes"
	if limit < 0 {
		return nil, perr(op, "", EINVAL, fmt.Sprintf("limit must be a non-negative integer, got %d", limit))
	}
	if limit == 0 {
		limit = DefaultPage
	}
	var out []Change
	err := f.view(ctx, op, "", func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT pruned FROM vfs_state WHERE id = 1`)
		if err != nil {
			return err
		}
		var pruned int64
		if s.Step() {
			pruned = s.ColumnInt64(0)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		if sinceRev < pruned {
			return perr(op, "", EINVAL, fmt.Sprintf("changes up to revision %d were pruned (asked from %d)", pruned, sinceRev))
		}
		s, err = c.Query(`SELECT seq, op, path, coalesce(old_path, ''), type, time FROM vfs_changes
			WHERE seq >= ? ORDER BY seq`, changeSeq(sinceRev+1, 0))
		if err != nil {
			return err
		}
		for s.Step() {
			seq := s.ColumnInt64(0)
			ch := Change{Seq: seq, Rev: seq >> changeSeqBits, Op: ChangeOp(s.ColumnText(1)), Path: s.ColumnText(2),
				OldPath: s.ColumnText(3), Kind: Type(s.ColumnInt64(4)), Time: s.ColumnInt64(5)}
			if len(out) >= limit && ch.Rev != out[len(out)-1].Rev {
				break
			}
			out = append(out, ch)
		}
		return sqldb.Done(s, nil)
	})
	return out, err
}

// changeSeqBits is how many low bits of a change's seq number it within its
// transaction.
const changeSeqBits = 16

func changeSeq(rev int64, i int) int64 { return rev<<changeSeqBits | int64(i) }

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
		for {
			wake := f.waitChan()
			batch, err := f.Changes(ctx, sinceRev, 0)
			if err != nil {
				return
			}
			for _, c := range batch {
				select {
				case ch <- c:
					sinceRev = c.Rev
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
