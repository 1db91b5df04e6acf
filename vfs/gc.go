package vfs

import (
	"context"

	"github.com/nookdev/nook/internal/sqldb"
)

// GCStats reports what GC removed.
type GCStats struct {
	Blobs   int64 // unreferenced chunks deleted
	Bytes   int64 // their bytes
	Orphans int64 // unlinked files no handle of this process holds
	Changes int64 // change-feed entries pruned beyond Limits.MaxChanges
	// IndexBlocks counts trigram-index blocks dropped because most of
	// their documents were removed; their live chunks are indexed again
	// as writes come (or by RebuildIndex).
	IndexBlocks int64
	Vacuumed    bool // free pages returned to the OS
}

// GC deletes chunks no file has referenced for longer than the GC window,
// removed files that a crashed process left open, and change-feed entries
// beyond Limits.MaxChanges, and drops the trigram index's blocks whose
// documents are mostly of removed chunks. Files other processes hold open after removing
// them are not distinguishable from those of crashed processes: GC collects
// them, and such handles then read an empty file.
func (f *FS) GC(ctx context.Context) (*GCStats, error) {
	st := &GCStats{}
	err := f.update(ctx, "gc", "", func(t *wtx) error {
		c := t.c
		s, err := c.Query(`SELECT inode FROM vfs_nodes WHERE nlink = 0`)
		if err != nil {
			return err
		}
		var orphans []int64
		for s.Step() {
			orphans = append(orphans, s.ColumnInt64(0))
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		for _, in := range orphans {
			if f.isOpen(in) {
				continue
			}
			if err := t.deleteNode(in, TypeFile); err != nil {
				return err
			}
			st.Orphans++
		}
		cutoff := t.now - f.gcWin.Nanoseconds()
		s, err = c.Query(`SELECT count(*), coalesce(sum(size), 0) FROM vfs_blobs WHERE refs = 0 AND unref_at <= ?`, cutoff)
		if err != nil {
			return err
		}
		if s.Step() {
			st.Blobs, st.Bytes = s.ColumnInt64(0), s.ColumnInt64(1)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		if err := c.Exec(`DELETE FROM vfs_blob_data WHERE id IN (SELECT id FROM vfs_blobs WHERE refs = 0 AND unref_at <= ?)`, cutoff); err != nil {
			return err
		}
		if err := c.Exec(`DELETE FROM vfs_blobs WHERE refs = 0 AND unref_at <= ?`, cutoff); err != nil {
			return err
		}
		if st.IndexBlocks, err = t.compactIndex(); err != nil {
			return err
		}
		// Keep the newest MaxChanges entries, rounded down to whole
		// revisions: a reader may resume after any kept revision.
		s, err = c.Query(`SELECT rev FROM vfs_changes ORDER BY seq DESC LIMIT 1 OFFSET ?`, f.lim.MaxChanges)
		if err != nil {
			return err
		}
		cut := int64(-1)
		if s.Step() {
			cut = s.ColumnInt64(0)
		}
		if err := sqldb.Done(s, nil); err != nil || cut < 0 {
			return err
		}
		s, err = c.Query(`SELECT max(seq) FROM vfs_changes WHERE rev <= ?`, cut)
		if err != nil {
			return err
		}
		var cutSeq int64
		if s.Step() {
			cutSeq = s.ColumnInt64(0)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		if err := c.Exec(`DELETE FROM vfs_changes WHERE seq <= ?`, cutSeq); err != nil {
			return err
		}
		st.Changes = c.Changes()
		return c.Exec(`UPDATE vfs_state SET pruned = max(pruned, ?), pruned_seq = max(pruned_seq, ?) WHERE id = 1`, cut, cutSeq)
	})
	if err != nil {
		return nil, err
	}
	if !f.db.Memory() && st.Blobs > 0 {
		// Return freed pages; incremental so it never rewrites the file.
		err = f.db.Write(ctx, func(c *sqldb.Conn) error { return c.Exec(`PRAGMA incremental_vacuum`) })
		st.Vacuumed = err == nil
	}
	return st, ioErr("gc", "", err)
}
