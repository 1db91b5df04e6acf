package vfs

import (
	"fmt"

	"github.com/nookdev/nook/internal/sqldb"
)

// SchemaVersion is the version of the vfs tables this build writes.
const SchemaVersion = 5

// schemaV1 creates the vfs tables at version 1.
//
//   - vfs_state: one row of counters: schema version, the global revision,
//     logical bytes in files, the number of nodes, and the revision up to
//     which the change feed was pruned.
//   - vfs_nodes: one row per inode; root is inode 1. Times are nanoseconds.
//     nlink counts directory entries; 0 means unlinked but still open.
//   - vfs_dirents: name → inode edges, ordered by (parent, name) bytewise.
//   - vfs_blobs: content-addressed chunks (sha256) with a reference count and
//     the time they became unreferenced (for GC).
//     A blob's id is derived from its hash (see blobID), so finding a blob
//     by hash is a rowid lookup and needs no second index to maintain.
//   - vfs_blob_data: the chunk bytes, kept apart so that blob metadata pages
//     stay small.
//   - vfs_chunks: a file's ordered chunk list.
//   - vfs_filters: each chunk's trigram filter for grep, keyed by
//     inode<<20 | idx (filterID), so that a directory's files, created
//     together, have their filters together: grep reads them in order
//     instead of seeking to each blob.
//   - vfs_changes: the change log: one row per effect. seq numbers every
//     effect ever recorded, from vfs_state.seq, and rev is the revision of
//     its transaction (indexed), so the feed is read by revision or by seq
//     with a range scan. (Schema v1 packed both into seq as rev<<16 | i,
//     which a transaction of more than 65,536 changes overflowed into the
//     next revision's keys; v2 is the repair, see migrations[1].)
const schemaV1 = `
CREATE TABLE vfs_state(
	id INTEGER PRIMARY KEY CHECK (id = 1),
	schema_version INTEGER NOT NULL,
	rev INTEGER NOT NULL,
	bytes INTEGER NOT NULL,
	nodes INTEGER NOT NULL,
	pruned INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE vfs_nodes(
	inode INTEGER PRIMARY KEY,
	type INTEGER NOT NULL CHECK (type IN (1, 2, 3)),
	mode INTEGER NOT NULL,
	size INTEGER NOT NULL DEFAULT 0,
	nlink INTEGER NOT NULL DEFAULT 1,
	atime INTEGER NOT NULL,
	mtime INTEGER NOT NULL,
	ctime INTEGER NOT NULL,
	rev INTEGER NOT NULL,
	target TEXT
);
CREATE INDEX vfs_nodes_unlinked ON vfs_nodes(nlink) WHERE nlink = 0;
CREATE TABLE vfs_dirents(
	parent INTEGER NOT NULL,
	name TEXT NOT NULL,
	inode INTEGER NOT NULL,
	PRIMARY KEY (parent, name)
) WITHOUT ROWID;
CREATE TABLE vfs_blobs(
	id INTEGER PRIMARY KEY,
	hash BLOB NOT NULL,
	size INTEGER NOT NULL,
	refs INTEGER NOT NULL,
	unref_at INTEGER
);
CREATE INDEX vfs_blobs_unref ON vfs_blobs(unref_at) WHERE refs = 0;
CREATE TABLE vfs_blob_data(
	id INTEGER PRIMARY KEY,
	data BLOB NOT NULL
);
CREATE TABLE vfs_chunks(
	inode INTEGER NOT NULL,
	idx INTEGER NOT NULL,
	blob INTEGER NOT NULL,
	size INTEGER NOT NULL,
	PRIMARY KEY (inode, idx)
) WITHOUT ROWID;
CREATE TABLE vfs_filters(
	id INTEGER PRIMARY KEY,
	filter BLOB NOT NULL
);
CREATE TABLE vfs_changes(
	seq INTEGER PRIMARY KEY,
	op TEXT NOT NULL,
	path TEXT NOT NULL,
	old_path TEXT,
	type INTEGER NOT NULL,
	time INTEGER NOT NULL
);
`

// schemaV3 adds the checkpoint tables.
//
//   - vfs_checkpoints: one row per checkpoint: its name, the revision it
//     records, when it was taken and the tree's totals then.
//   - vfs_snap_nodes: versions of nodes. A version holds for checkpoint
//     ids in [born, died) (died NULL: still current at the newest
//     checkpoint). chunks packs the file's blob ids, 8 bytes each, and
//     every id in it holds one reference in vfs_blobs, so content a
//     checkpoint needs is never collected.
//   - vfs_snap_dirents: versions of directory entries, the same way.
const schemaV3 = `
CREATE TABLE vfs_checkpoints(
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE,
	rev INTEGER NOT NULL,
	time INTEGER NOT NULL,
	entries INTEGER NOT NULL,
	bytes INTEGER NOT NULL
);
CREATE TABLE vfs_snap_nodes(
	inode INTEGER NOT NULL,
	born INTEGER NOT NULL,
	died INTEGER,
	type INTEGER NOT NULL,
	mode INTEGER NOT NULL,
	size INTEGER NOT NULL,
	nlink INTEGER NOT NULL,
	atime INTEGER NOT NULL,
	mtime INTEGER NOT NULL,
	ctime INTEGER NOT NULL,
	target TEXT,
	chunks BLOB,
	PRIMARY KEY (inode, born)
) WITHOUT ROWID;
CREATE INDEX vfs_snap_nodes_died ON vfs_snap_nodes(died);
CREATE TABLE vfs_snap_dirents(
	parent INTEGER NOT NULL,
	name TEXT NOT NULL,
	born INTEGER NOT NULL,
	died INTEGER,
	inode INTEGER NOT NULL,
	PRIMARY KEY (parent, name, born)
) WITHOUT ROWID;
CREATE INDEX vfs_snap_dirents_died ON vfs_snap_dirents(died);
CREATE INDEX vfs_nodes_rev ON vfs_nodes(rev);
`

// migrations[v] upgrades a database from schema version v to v+1. Version 0
// is an empty database.
var migrations = map[int]func(c *sqldb.Conn, now int64) error{
	0: func(c *sqldb.Conn, now int64) error {
		if err := c.Exec(schemaV1); err != nil {
			return err
		}
		if err := c.Exec(`INSERT INTO vfs_state(id, schema_version, rev, bytes, nodes) VALUES (1, 1, 1, 0, 1)`); err != nil {
			return err
		}
		return c.Exec(`INSERT INTO vfs_nodes(inode, type, mode, size, nlink, atime, mtime, ctime, rev)
			VALUES (1, 2, 493, 0, 1, ?, ?, ?, 0)`, now, now, now)
	},
	// v2: the change feed's revision gets a column of its own and seq
	// becomes a plain counter kept in vfs_state. The existing seq values
	// are kept (they are already strictly increasing); each row's revision
	// is its v1 key's high bits, except for the rows a transaction of more
	// than 65,536 changes spilled past the last committed revision (that
	// overflow is what bricked v1 workspaces: the next transaction's first
	// key was taken): those belong to the last revision.
	1: func(c *sqldb.Conn, now int64) error {
		return c.Exec(`
ALTER TABLE vfs_changes ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
UPDATE vfs_changes SET rev = min(seq >> 16, (SELECT rev FROM vfs_state WHERE id = 1));
CREATE INDEX vfs_changes_rev ON vfs_changes(rev);
ALTER TABLE vfs_state ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE vfs_state ADD COLUMN pruned_seq INTEGER NOT NULL DEFAULT 0;
UPDATE vfs_state SET
	seq = (SELECT coalesce(max(seq), 0) FROM vfs_changes),
	pruned_seq = CASE WHEN pruned > 0 THEN ((pruned + 1) << 16) - 1 ELSE 0 END
WHERE id = 1;`)
	},
	// v3: checkpoints (see checkpoint.go and RATIONALE.md). Node and
	// directory-entry versions are kept per checkpoint range, and
	// vfs_nodes gets an index on its revision so that a checkpoint finds
	// what changed since the previous one without scanning the tree.
	2: func(c *sqldb.Conn, now int64) error { return c.Exec(schemaV3) },
	// v4: the trigram index (see index.go and RATIONALE.md). Existing
	// chunks start unindexed, which grep scans as before; writes index
	// them a few blocks at a time, or RebuildIndex all at once.
	3: func(c *sqldb.Conn, now int64) error { return c.Exec(schemaV4) },
	// v5: the change feed by path (see schemaV5), for one file's history.
	4: func(c *sqldb.Conn, now int64) error { return c.Exec(schemaV5) },
}

// schemaV5 indexes the change feed by path, so that [FS.PathChanges]
// reads one path's entries instead of the whole feed: vfs_changes_path
// over (path, seq), and vfs_changes_old_path over (old_path, seq) for the
// renames and links away from a path (old_path is NULL for the other
// operations, which the partial index leaves out).
const schemaV5 = `
CREATE INDEX vfs_changes_path ON vfs_changes(path, seq);
CREATE INDEX vfs_changes_old_path ON vfs_changes(old_path, seq) WHERE old_path IS NOT NULL;
`

// migrate brings the schema to SchemaVersion inside the caller's write
// transaction. A database newer than this build is refused with EIO.
func migrate(c *sqldb.Conn, now int64) error {
	v := 0
	exists, err := tableExists(c, "vfs_state")
	if err != nil {
		return err
	}
	if exists {
		s, err := c.Query(`SELECT schema_version FROM vfs_state WHERE id = 1`)
		if err != nil {
			return err
		}
		if s.Step() {
			v = s.ColumnInt(0)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
	}
	if v > SchemaVersion {
		return perr("open", "", EIO, fmt.Sprintf("Unsupported workspace filesystem schema version %d (this build supports up to %d)", v, SchemaVersion))
	}
	for ; v < SchemaVersion; v++ {
		step, ok := migrations[v]
		if !ok {
			return perr("open", "", EIO, fmt.Sprintf("vfs schema: no migration registered for v%d -> v%d", v, v+1))
		}
		if err := step(c, now); err != nil {
			return fmt.Errorf("vfs schema migration v%d -> v%d: %w", v, v+1, err)
		}
		if v+1 > 1 {
			if err := c.Exec(`UPDATE vfs_state SET schema_version = ? WHERE id = 1`, v+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func tableExists(c *sqldb.Conn, name string) (bool, error) {
	s, err := c.Query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`, name)
	if err != nil {
		return false, err
	}
	ok := s.Step()
	return ok, sqldb.Done(s, nil)
}
