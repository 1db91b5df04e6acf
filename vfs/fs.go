package vfs

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nookdev/nook/internal/sqldb"
	"github.com/nookdev/nook/internal/wsdb"
)

// Limits bound what a workspace may hold and what one call may return. Each
// has a name (used in the error that reports it), and zero means its default.
type Limits struct {
	// MaxFileSize is the largest file, in bytes (EFBIG); at most 256 GiB.
	MaxFileSize int64
	// MaxTotalBytes bounds the sum of all file sizes (ENOSPC).
	MaxTotalBytes int64
	// MaxEntries bounds the number of files, directories and symlinks (ENOSPC);
	// each extra name a hard link gives a file counts as one more.
	MaxEntries int64
	// MaxPathLength is the longest path in bytes, at most 4096 (ENAMETOOLONG).
	MaxPathLength int
	// MaxNameLength is the longest path segment in bytes (ENAMETOOLONG).
	MaxNameLength int
	// MaxPage caps the entries one ReadDir, Ls, Find or Grep call returns.
	MaxPage int
	// MaxChanges is how many change-feed entries are kept; GC prunes older ones.
	MaxChanges int64
	// MaxTxChanges bounds the change-feed entries one transaction records
	// (a Batch of many operations, a patch of many files): a bigger one
	// fails with ENOSPC naming the limit and changes nothing. It is at most
	// MaxChanges, so that the feed always holds a whole transaction.
	// (Operations on a whole tree, such as a recursive Remove or a Rename
	// of a directory, record one entry.)
	MaxTxChanges int64
}

// Default limits.
const (
	DefaultMaxFileSize   = 1 << 30
	DefaultMaxTotalBytes = 10 << 30
	DefaultMaxEntries    = 1_000_000
	DefaultMaxNameLength = 255
	DefaultMaxPage       = 1000
	DefaultPage          = 200
	DefaultMaxChanges    = 100_000
	DefaultMaxTxChanges  = 100_000
)

func (l Limits) withDefaults() Limits {
	if l.MaxFileSize <= 0 {
		l.MaxFileSize = DefaultMaxFileSize
	}
	l.MaxFileSize = min(l.MaxFileSize, maxChunks*ChunkSize)
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = DefaultMaxTotalBytes
	}
	if l.MaxEntries <= 0 {
		l.MaxEntries = DefaultMaxEntries
	}
	if l.MaxPathLength <= 0 || l.MaxPathLength > MaxPathLength {
		l.MaxPathLength = MaxPathLength
	}
	if l.MaxNameLength <= 0 {
		l.MaxNameLength = DefaultMaxNameLength
	}
	if l.MaxPage <= 0 {
		l.MaxPage = DefaultMaxPage
	}
	if l.MaxChanges <= 0 {
		l.MaxChanges = DefaultMaxChanges
	}
	if l.MaxTxChanges <= 0 {
		l.MaxTxChanges = DefaultMaxTxChanges
	}
	l.MaxTxChanges = min(l.MaxTxChanges, l.MaxChanges)
	return l
}

// Options configure a filesystem.
type Options struct {
	Limits Limits
	// Now is the clock for timestamps (default time.Now).
	Now func() time.Time
	// GCWindow is how long an unreferenced chunk survives before GC may
	// delete it (default one hour). Streaming writes stage chunks before they
	// link them, so the window must outlast the slowest write.
	GCWindow time.Duration
	// DB tunes the SQLite connections of the database Open opens.
	DB DBOptions
}

// DBOptions tune the SQLite connections of a workspace database.
type DBOptions struct {
	// BusyTimeout bounds how long a transaction waits for another
	// process's lock before failing (0 means one minute).
	BusyTimeout time.Duration
	// Readers is the maximum number of pooled reader connections (0 means
	// 4).
	Readers int
	// SyncFull makes every commit fsync the write-ahead log, so committed
	// work survives power loss and not only process crashes, at a large
	// cost in write throughput. It has no effect in memory.
	SyncFull bool
	// OnCommit, when set, runs after every committed write transaction
	// of the database, with the write lock held: no other write starts
	// before it returns. It must not write to the database. Its error
	// fails the writes of that commit (which stays committed in the file).
	OnCommit func(c Commit) error
}

func init() {
	wsdb.Register(func(fsys any) *sqldb.DB { return fsys.(*FS).db })
}

// FS is a filesystem stored in one SQLite database. It is safe for
// concurrent use by many goroutines, and several processes may open the same
// database file.
type FS struct {
	db     *sqldb.DB
	ownsDB bool
	lim    Limits
	clock  func() time.Time
	gcWin  time.Duration

	mounts  atomic.Pointer[[]*mount] // sorted by root, immutable slices
	mountMu sync.Mutex               // serialises changes to mounts

	openMu sync.Mutex
	open   map[int64]*openFile // files with open handles, by inode
	dirty  atomic.Int32        // open files holding unflushed writes

	watchMu sync.Mutex
	notify  chan struct{} // closed and replaced after each committed change

	gen atomic.Int64 // commits made by this process

	cursors cursorCache // where recent Find and Grep pages stopped

	grepScan bool // tests: grep ignores the trigram index

	idx indexer // indexes new blobs off the writes' path (index.go)

	closed atomic.Bool
}

// Open opens (creating if needed) the workspace database at path and the
// filesystem in it. The empty path opens a private in-memory filesystem.
//
// A fork's copy that a crash left unfinished (see Fork) is refused with
// EINVAL.
func Open(ctx context.Context, path string, opts *Options) (*FS, error) {
	if err := refuseUnfinishedFork(path); err != nil {
		return nil, err
	}
	return open(ctx, path, opts)
}

// open is Open without the check for an unfinished fork.
func open(ctx context.Context, path string, opts *Options) (*FS, error) {
	if opts == nil {
		opts = &Options{}
	}
	db, err := sqldb.Open(ctx, path, sqldb.Options{BusyTimeout: opts.DB.BusyTimeout, Readers: opts.DB.Readers, SyncFull: opts.DB.SyncFull,
		OnCommit: commitHook(path, opts.DB.OnCommit)})
	if err != nil {
		return nil, &PathError{Op: "open", Path: path, Code: EIO, Text: "cannot open workspace database (" + err.Error() + ")", Err: err}
	}
	f, err := newFS(ctx, db, opts)
	if err != nil {
		db.Close()
		return nil, err
	}
	f.ownsDB = true
	return f, nil
}

// newFS opens the filesystem in an already open database, creating or
// migrating its tables. The caller keeps ownership of db.
func newFS(ctx context.Context, db *sqldb.DB, opts *Options) (*FS, error) {
	if opts == nil {
		opts = &Options{}
	}
	f := &FS{
		db:     db,
		lim:    opts.Limits.withDefaults(),
		clock:  opts.Now,
		gcWin:  opts.GCWindow,
		open:   map[int64]*openFile{},
		notify: make(chan struct{}),
	}
	if f.clock == nil {
		f.clock = time.Now
	}
	if f.gcWin <= 0 {
		f.gcWin = time.Hour
	}
	f.mounts.Store(&[]*mount{})
	f.idx.ctx, f.idx.cancel = context.WithCancel(context.Background())
	err := db.Write(ctx, func(c *sqldb.Conn) error { return migrate(c, f.now()) })
	if err != nil {
		if _, ok := err.(*PathError); ok {
			return nil, err
		}
		return nil, &PathError{Op: "open", Path: db.Path(), Code: EIO, Text: "cannot initialise workspace filesystem (" + err.Error() + ")", Err: err}
	}
	return f, nil
}

// Close flushes open handles' pending writes and, when Open created the
// database, closes it. Handles still open afterwards fail with EBADF.
func (f *FS) Close() error {
	if f.closed.Load() {
		return nil
	}
	f.flushAll(context.Background()) // before closing: a flush is an update, which a closed FS refuses
	if f.closed.Swap(true) {
		return nil
	}
	f.stopIndex()
	if f.ownsDB {
		return f.db.Close()
	}
	return nil
}

// Limits returns the limits in force.
func (f *FS) Limits() Limits { return f.lim }

func (f *FS) now() int64 { return f.clock().UnixNano() }

// Ping checks that the workspace can take a write: the database is open,
// writable, and its writer lock can be had within the busy timeout. It
// changes nothing (no revision is taken), so a readiness probe may call
// it often.
func (f *FS) Ping(ctx context.Context) error {
	return f.updateRaw(ctx, "ping", "", func(*wtx) error { return nil })
}

// Now reads the workspace's clock (Options.Now), the one its timestamps
// come from.
func (f *FS) Now() time.Time { return f.clock() }

// Rev returns the current revision: it grows by one with every committed
// mutation.
func (f *FS) Rev(ctx context.Context) (int64, error) {
	var rev int64
	err := f.db.Read(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT rev FROM vfs_state WHERE id = 1`)
		if err != nil {
			return err
		}
		if s.Step() {
			rev = s.ColumnInt64(0)
		}
		return sqldb.Done(s, nil)
	})
	return rev, ioErr("rev", "", err)
}

// Usage reports the workspace's totals.
type Usage struct {
	Bytes   int64 // sum of file sizes, a file with several names (hard links) once
	Entries int64 // names of files, directories and symlinks, the root included
	Stored  int64 // bytes of unique chunk content actually stored
}

// Usage returns the workspace's totals.
func (f *FS) Usage(ctx context.Context) (Usage, error) {
	var u Usage
	err := f.view(ctx, "usage", "", func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT bytes, nodes, (SELECT coalesce(sum(size), 0) FROM vfs_blobs) FROM vfs_state WHERE id = 1`)
		if err != nil {
			return err
		}
		if s.Step() {
			u.Bytes, u.Entries, u.Stored = s.ColumnInt64(0), s.ColumnInt64(1), s.ColumnInt64(2)
		}
		return sqldb.Done(s, nil)
	})
	return u, err
}

// clean canonicalises a caller's path and applies the path limits.
func (f *FS) clean(op, p string) (string, error) {
	c, err := Clean(p)
	if err != nil {
		if pe, ok := err.(*PathError); ok {
			pe.Op = op
		}
		return "", err
	}
	if len(c) > f.lim.MaxPathLength {
		return "", perr(op, p, ENAMETOOLONG, fmt.Sprintf("path exceeds MaxPathLength (%d bytes)", f.lim.MaxPathLength))
	}
	return c, nil
}

// checkName applies MaxNameLength to a name about to be created.
func (f *FS) checkName(op, p string) error {
	if len(Base(p)) > f.lim.MaxNameLength {
		return perr(op, p, ENAMETOOLONG, fmt.Sprintf("name exceeds MaxNameLength (%d bytes)", f.lim.MaxNameLength))
	}
	return nil
}

func (f *FS) pageOf(p Page) (limit, offset int, err error) {
	if p.Limit < 0 {
		return 0, 0, perr("page", "", EINVAL, fmt.Sprintf("limit must be a non-negative integer, got %d", p.Limit))
	}
	if p.Offset < 0 {
		return 0, 0, perr("page", "", EINVAL, fmt.Sprintf("offset must be a non-negative integer, got %d", p.Offset))
	}
	limit = p.Limit
	if limit == 0 {
		limit = min(DefaultPage, f.lim.MaxPage)
	}
	return min(limit, f.lim.MaxPage), p.Offset, nil
}

// view runs fn in a read transaction after flushing handles' pending writes,
// so every read sees every write made through this process's handles.
func (f *FS) view(ctx context.Context, op, path string, fn func(c *sqldb.Conn) error) error {
	if f.closed.Load() {
		return perr(op, path, EIO, "workspace is closed")
	}
	if f.dirty.Load() > 0 {
		f.flushAll(ctx)
	}
	return ioErr(op, path, f.db.Read(ctx, fn))
}

// wtx is one mutation transaction. It allocates the revision, tracks the
// change in totals for the quotas and collects change-feed entries.
type wtx struct {
	f       *FS
	c       *sqldb.Conn
	now     int64
	rev     int64 // the revision this transaction stamps
	seq     int64 // the change feed's last seq when the transaction began
	bytes   int64 // totals when the transaction began
	nodes   int64
	dBytes  int64
	dNodes  int64
	changes []Change
	dirty   bool // something was written

	// The trigram index (index.go): whether it is on, the bound on
	// unindexed blobs when the transaction began, and the blobs it stored.
	triOn      bool
	triPending int64
	newBlobs   int64
	kickIndex  bool // start the indexer after the commit
}

// update runs fn in a write transaction and commits it with one new
// revision when fn changed anything. Handles' pending writes are flushed
// first, so the mutation applies after them.
func (f *FS) update(ctx context.Context, op, path string, fn func(t *wtx) error) error {
	if f.dirty.Load() > 0 {
		f.flushAll(ctx)
	}
	return f.updateRaw(ctx, op, path, fn)
}

// updateRaw is update without the flush, for the flush itself.
func (f *FS) updateRaw(ctx context.Context, op, path string, fn func(t *wtx) error) error {
	if f.closed.Load() {
		return perr(op, path, EIO, "workspace is closed")
	}
	var changed, kick bool
	err := f.db.Write(ctx, func(c *sqldb.Conn) error {
		t := &wtx{f: f, c: c, now: f.now()}
		s, err := c.Query(`SELECT rev, bytes, nodes, seq, tri_on, tri_pending FROM vfs_state WHERE id = 1`)
		if err != nil {
			return err
		}
		if s.Step() {
			t.rev, t.bytes, t.nodes, t.seq = s.ColumnInt64(0)+1, s.ColumnInt64(1), s.ColumnInt64(2), s.ColumnInt64(3)
			t.triOn, t.triPending = s.ColumnInt(4) != 0, s.ColumnInt64(5)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		if err := fn(t); err != nil {
			return err
		}
		if err := t.indexWrite(); err != nil {
			return err
		}
		kick = t.kickIndex
		if !t.dirty && len(t.changes) == 0 {
			return nil
		}
		if t.dBytes > 0 && t.bytes+t.dBytes > f.lim.MaxTotalBytes {
			return perr(op, path, ENOSPC, fmt.Sprintf("workspace exceeds MaxTotalBytes (%d bytes)", f.lim.MaxTotalBytes))
		}
		if t.dNodes > 0 && t.nodes+t.dNodes > f.lim.MaxEntries {
			return perr(op, path, ENOSPC, fmt.Sprintf("workspace exceeds MaxEntries (%d)", f.lim.MaxEntries))
		}
		if n := int64(len(t.changes)); n > f.lim.MaxTxChanges {
			return perr(op, path, ENOSPC, fmt.Sprintf("one transaction of %d changes exceeds MaxTxChanges (%d): split it", n, f.lim.MaxTxChanges))
		}
		if err := c.Exec(`UPDATE vfs_state SET rev = ?, bytes = bytes + ?, nodes = nodes + ?, seq = seq + ? WHERE id = 1`,
			t.rev, t.dBytes, t.dNodes, len(t.changes)); err != nil {
			return err
		}
		for i, ch := range t.changes {
			var old any
			if ch.OldPath != "" {
				old = ch.OldPath
			}
			if err := c.Exec(`INSERT INTO vfs_changes(seq, rev, op, path, old_path, type, time) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				t.seq+int64(i)+1, t.rev, string(ch.Op), ch.Path, old, int64(ch.Kind), t.now); err != nil {
				return err
			}
		}
		changed = true
		return nil
	})
	if changed && err == nil {
		f.gen.Add(1)
		f.signal()
	}
	if kick && err == nil {
		f.kickIndex()
	}
	return ioErr(op, path, err)
}

// record notes a change-feed entry for this transaction.
func (t *wtx) record(op ChangeOp, path, old string, kind Type) {
	t.changes = append(t.changes, Change{Op: op, Path: path, OldPath: old, Kind: kind})
}

// signal wakes watchers after a commit.
func (f *FS) signal() {
	f.watchMu.Lock()
	close(f.notify)
	f.notify = make(chan struct{})
	f.watchMu.Unlock()
}

func (f *FS) waitChan() <-chan struct{} {
	f.watchMu.Lock()
	defer f.watchMu.Unlock()
	return f.notify
}
