// Package sqldb owns the SQLite connections of one workspace database.
//
// A workspace database is shared by several owners of tables (vfs, and later
// journal), by many goroutines and by several processes. sqldb gives them one
// writer connection, serialised in-process by a semaphore and across processes
// by BEGIN IMMEDIATE with a busy timeout, and a pool of reader connections that
// run concurrently under WAL. Callers never see a connection outside a
// transaction: Write and Read hand one to a callback and commit or roll back
// when it returns.
package sqldb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// Options configure a database.
type Options struct {
	// BusyTimeout bounds how long a transaction waits for another process's
	// lock before failing. Zero means DefaultBusyTimeout.
	BusyTimeout time.Duration
	// Readers is the maximum number of pooled reader connections. Zero means
	// DefaultReaders.
	Readers int
	// SyncFull makes every commit fsync the WAL (survives power loss, not just
	// process crashes) at a large cost in write throughput.
	SyncFull bool
	// OnCommit, when set, runs after every committed write transaction
	// (see CommitHook).
	OnCommit CommitHook
}

// Defaults.
const (
	DefaultBusyTimeout = 60 * time.Second
	DefaultReaders     = 4
)

// DB is one workspace database.
type DB struct {
	path    string
	memory  bool
	opts    Options
	wsem    chan struct{} // held by the leader of a write batch
	qmu     sync.Mutex    // guards queue
	queue   []*writeReq   // writes waiting for a leader
	writer  *Conn
	readers chan *Conn
	mu      sync.Mutex // guards open, closed
	open    int        // reader connections created
	closed  bool
}

// Conn is one SQLite connection with a cache of prepared statements.
type Conn struct {
	*sqlite3.Conn
	stmts map[string]*sqlite3.Stmt
}

// ErrClosed is returned by operations on a closed DB.
var ErrClosed = errors.New("workspace database is closed")

// Open opens or creates the database at path. The empty path or ":memory:"
// opens a private in-memory database served by a single connection.
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = DefaultBusyTimeout
	}
	if opts.Readers <= 0 {
		opts.Readers = DefaultReaders
	}
	db := &DB{path: path, opts: opts, wsem: make(chan struct{}, 1)}
	if path == "" || path == ":memory:" {
		db.memory = true
		db.path = ":memory:"
	} else if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	w, err := db.connect(ctx, true)
	if err != nil {
		return nil, err
	}
	db.writer = w
	db.readers = make(chan *Conn, opts.Readers)
	return db, nil
}

// SyncFull reports whether commits fsync the log (Options.SyncFull).
func (db *DB) SyncFull() bool { return db.opts.SyncFull }

// Path is the database file name (":memory:" for an in-memory database).
func (db *DB) Path() string { return db.path }

// Memory reports whether the database lives only in this process's memory.
func (db *DB) Memory() bool { return db.memory }

func (db *DB) connect(ctx context.Context, writer bool) (*Conn, error) {
	c, err := sqlite3.OpenContext(ctx, db.path)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", db.path, err)
	}
	conn := &Conn{Conn: c, stmts: map[string]*sqlite3.Stmt{}}
	if err := c.BusyTimeout(db.opts.BusyTimeout); err != nil {
		c.Close()
		return nil, err
	}
	// A stable query plan: this SQLite build has STAT4, under which a
	// statement whose plan might depend on a bound value is re-prepared on
	// every rebinding; our cached statements (directory pages, lookups) were
	// re-parsed on each step, half of Find's time.
	if _, err := c.Config(sqlite3.DBCONFIG_ENABLE_QPSG, true); err != nil {
		c.Close()
		return nil, err
	}
	// auto_vacuum only takes effect on a new database; it lets GC return
	// freed pages with PRAGMA incremental_vacuum.
	pragmas := []string{"PRAGMA auto_vacuum=INCREMENTAL", "PRAGMA foreign_keys=OFF", "PRAGMA temp_store=MEMORY"}
	if !db.memory {
		sync := "NORMAL"
		if db.opts.SyncFull {
			sync = "FULL"
		}
		// A WAL of 4,000 pages (16 MiB) before the automatic checkpoint:
		// pages that many transactions rewrite (counters, hot directories)
		// are copied back once per batch, and syncs are fewer.
		pragmas = append(pragmas, "PRAGMA journal_mode=WAL", "PRAGMA synchronous="+sync, "PRAGMA wal_autocheckpoint=4000")
	}
	for _, p := range pragmas {
		if err := c.Exec(p); err != nil {
			c.Close()
			return nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	return conn, nil
}

// Write runs fn in an immediate (write-locked) transaction and returns
// once its effects are committed, or rolled back when fn fails. Writers are
// serialised in-process and, through SQLite's lock, across processes.
//
// Concurrent writers share commits (group commit): whoever holds the write
// lock runs every queued fn in one transaction, each inside its own
// savepoint, so one fn's failure undoes only its own effects while the
// batch pays for one commit. fn sees the effects of fns committed before
// it, as with one transaction each.
func (db *DB) Write(ctx context.Context, fn func(*Conn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if c := db.joinedConn(ctx); c != nil {
		return inSavepoint(c, fn)
	}
	r := &writeReq{ctx: ctx, fn: fn, done: make(chan struct{})}
	db.qmu.Lock()
	db.queue = append(db.queue, r)
	db.qmu.Unlock()
	select {
	case db.wsem <- struct{}{}:
		// Leader: a previous leader has finished, so r is either done or
		// still queued and part of this batch.
		db.qmu.Lock()
		batch := db.queue
		db.queue = nil
		db.qmu.Unlock()
		if len(batch) > 0 {
			db.runBatch(batch)
		}
		<-db.wsem
	case <-r.done:
	}
	<-r.done
	if r.panicked != nil {
		panic(r.panicked)
	}
	return r.err
}

// writeReq is one queued Write.
type writeReq struct {
	ctx      context.Context
	fn       func(*Conn) error
	err      error
	panicked any
	done     chan struct{}
}

// runBatch runs queued writes in as few transactions as it can: one, unless
// a failure rolls the whole transaction back (SQLite does that on I/O
// errors and the like), in which case the writes before it fail with it and
// the rest start over.
func (db *DB) runBatch(batch []*writeReq) {
	defer func() {
		for _, r := range batch {
			close(r.done)
		}
	}()
	if db.isClosed() {
		for _, r := range batch {
			r.err = ErrClosed
		}
		return
	}
	c := db.writer
	pending := batch
	for len(pending) > 0 {
		pending = db.runTx(c, pending)
	}
}

// runTx runs writes in one transaction and returns those it could not get
// to because the transaction was rolled back under it. It always settles at
// least one write, so runBatch's loop ends.
func (db *DB) runTx(c *Conn, reqs []*writeReq) []*writeReq {
	var live []*writeReq
	for _, r := range reqs {
		if err := r.ctx.Err(); err != nil {
			r.err = err
		} else {
			live = append(live, r)
		}
	}
	if len(live) == 0 {
		return nil
	}
	// Waiting for another process's lock ends when every write waiting on
	// it has given up.
	ctx, release := allDone(live)
	old := c.SetInterrupt(ctx)
	err := c.Exec("BEGIN IMMEDIATE")
	c.SetInterrupt(old)
	release()
	if err != nil {
		for _, r := range live {
			r.err = lockErr(r.ctx, err, db.opts.BusyTimeout)
		}
		return nil
	}
	savepoints := len(live) > 1
	var ok []*writeReq
	for i, r := range live {
		if savepoints {
			if err := c.Exec("SAVEPOINT w"); err != nil {
				// r fails too, so that every pass makes progress.
				r.err = err
				return db.abort(c, ok, live[i+1:], err)
			}
		}
		old := c.SetInterrupt(r.ctx)
		r.err, r.panicked = call(r.fn, c)
		c.SetInterrupt(old)
		if r.err != nil {
			r.err = wrapCtx(r.ctx, r.err)
		}
		failed := r.err != nil || r.panicked != nil
		if c.GetAutocommit() {
			// SQLite rolled the whole transaction back.
			if !failed {
				r.err = errors.New("transaction rolled back")
			}
			return db.abort(c, ok, live[i+1:], r.err)
		}
		if failed {
			if savepoints {
				if err := c.Exec("ROLLBACK TO w; RELEASE w"); err != nil {
					return db.abort(c, ok, live[i+1:], err)
				}
			}
			continue
		}
		if savepoints {
			if err := c.Exec("RELEASE w"); err != nil {
				return db.abort(c, append(ok, r), live[i+1:], err)
			}
		}
		ok = append(ok, r)
	}
	if len(ok) == 0 {
		c.rollback()
		return nil
	}
	if err := c.Exec("COMMIT"); err != nil {
		c.rollback()
		for _, r := range ok {
			r.err = err
		}
		return nil
	}
	db.afterCommit(c, ok)
	return nil
}

// allDone returns a context that ends when the contexts of all reqs have.
func allDone(reqs []*writeReq) (context.Context, func()) {
	if len(reqs) == 1 {
		return reqs[0].ctx, func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var left atomic.Int32
	left.Store(int32(len(reqs)))
	stops := make([]func() bool, len(reqs))
	for i, r := range reqs {
		stops[i] = context.AfterFunc(r.ctx, func() {
			if left.Add(-1) == 0 {
				cancel()
			}
		})
	}
	return ctx, func() {
		for _, stop := range stops {
			stop()
		}
		cancel()
	}
}

// ErrLocked reports that another process held the workspace's write lock
// for longer than the busy timeout.
var ErrLocked = errors.New("workspace is locked by another process")

// lockErr explains a failure to take the write lock.
func lockErr(ctx context.Context, err error, timeout time.Duration) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, sqlite3.BUSY) {
		return fmt.Errorf("%w (waited %v, the busy timeout): %w", ErrLocked, timeout, err)
	}
	return err
}

// abort rolls back, fails the writes that had succeeded in the transaction
// with err, and returns the writes still to run.
func (db *DB) abort(c *Conn, ok, rest []*writeReq, err error) []*writeReq {
	c.rollback()
	for _, r := range ok {
		r.err = err
	}
	return rest
}

// call runs fn, turning a panic into a value to re-raise in the caller.
func call(fn func(*Conn) error, c *Conn) (err error, panicked any) {
	defer func() {
		if p := recover(); p != nil {
			panicked = p
		}
	}()
	return fn(c), nil
}

// Read runs fn in a read transaction, which sees one consistent snapshot of
// the database. In-memory databases share the writer connection.
func (db *DB) Read(ctx context.Context, fn func(*Conn) error) (err error) {
	if c := db.joinedConn(ctx); c != nil {
		return fn(c)
	}
	if db.memory {
		return db.Write(ctx, fn)
	}
	c, err := db.getReader(ctx)
	if err != nil {
		return err
	}
	return db.readOn(ctx, c, fn)
}

// readOn runs fn in a read transaction on reader c, then returns c to the
// pool.
func (db *DB) readOn(ctx context.Context, c *Conn, fn func(*Conn) error) (err error) {
	defer db.putReader(c)
	old := c.SetInterrupt(ctx)
	defer c.SetInterrupt(old)
	if err := c.Exec("BEGIN"); err != nil {
		return wrapCtx(ctx, err)
	}
	defer func() {
		if p := recover(); p != nil {
			c.rollback()
			panic(p)
		}
		if rerr := c.Exec("COMMIT"); rerr != nil {
			c.rollback()
			if err == nil {
				err = rerr
			}
		}
		if err != nil {
			err = wrapCtx(ctx, err)
		}
	}()
	return fn(c)
}

// VacuumInto writes a compacted copy of the database, as one read
// transaction sees it, to the new file path (SQLite's VACUUM INTO, which
// fails when the file exists). An in-memory database has no reader to
// copy it from.
func (db *DB) VacuumInto(ctx context.Context, path string) error {
	if db.memory {
		return errors.New("sqldb: an in-memory database cannot be copied to a file")
	}
	c, err := db.getReader(ctx)
	if err != nil {
		return err
	}
	defer db.putReader(c)
	old := c.SetInterrupt(ctx)
	defer c.SetInterrupt(old)
	return wrapCtx(ctx, c.Exec(`VACUUM INTO ?`, path))
}

// CopyTo writes a copy of the database to the new file path, as the last
// commit left it: the files are copied byte for byte (by the kernel,
// copy_file_range) while this connection holds the write lock, so that no
// commit appends to the log meanwhile. First a passive checkpoint (on a
// reader connection: it needs no lock a writer holds) moves the log
// into the database file; when it moved all of it, the file alone is the
// copy, else the log is copied too, to path-wal, and opening the copy
// recovers it (slower: it reads the whole log). A checkpoint by another
// process may write pages into the database file as it is read, but only
// pages the log holds too, which a copy with its log reads from the log.
// Writes wait for the copy, which is several times faster than
// VacuumInto's rebuild for it (the copy is not compacted). An in-memory
// database has no files to copy.
func (db *DB) CopyTo(ctx context.Context, path string) error {
	if db.memory {
		return errors.New("sqldb: an in-memory database cannot be copied to a file")
	}
	// A reader connection for backfill, opened (if there is none yet)
	// before the write lock is taken.
	if err := db.Read(ctx, func(*Conn) error { return nil }); err != nil {
		return err
	}
	return db.Write(ctx, func(c *Conn) error {
		whole, err := db.backfill()
		if err != nil {
			return err
		}
		if err := copyFile(db.path, path, true); err != nil {
			return err
		}
		if whole {
			return nil
		}
		if err := copyFile(db.path+"-wal", path+"-wal", false); err != nil {
			os.Remove(path)
			return err
		}
		return nil
	})
}

// backfill runs a passive checkpoint on an idle reader connection and
// reports whether it moved the whole log into the database file. With
// every reader busy it does nothing and reports false: it never waits for
// one, since their holders may be waiting for the write lock its caller
// holds, nor opens one, since opening sets pragmas that wait for that
// lock too.
func (db *DB) backfill() (bool, error) {
	var c *Conn
	select {
	case c = <-db.readers:
	default:
		return false, nil
	}
	defer db.putReader(c)
	s, _, err := c.Prepare(`PRAGMA wal_checkpoint(PASSIVE)`)
	if err != nil {
		return false, err
	}
	defer s.Close()
	whole := false
	if s.Step() { // busy, frames in the log, frames moved
		whole = s.ColumnInt64(1) >= 0 && s.ColumnInt64(1) == s.ColumnInt64(2)
	}
	return whole, s.Err()
}

// copyFile copies the file src to the new file dst (failing when dst
// exists). A missing src is an error only when must is set.
func copyFile(src, dst string, must bool) error {
	in, err := os.Open(src)
	if errors.Is(err, os.ErrNotExist) && !must {
		return nil
	}
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(dst)
	}
	return err
}

// TryRead is Read when a reader connection is free (or may be opened) right
// now; otherwise it runs nothing and returns false. It never waits for a
// connection, so code that already holds one can use it to fan out without
// deadlocking against other such code. In-memory databases have no spare
// connection: it always returns false there.
func (db *DB) TryRead(ctx context.Context, fn func(*Conn) error) (bool, error) {
	if db.memory || db.joinedConn(ctx) != nil {
		return false, nil
	}
	var c *Conn
	select {
	case c = <-db.readers:
	default:
		db.mu.Lock()
		if db.closed || db.open >= db.opts.Readers {
			db.mu.Unlock()
			return false, nil
		}
		db.open++
		db.mu.Unlock()
		var err error
		if c, err = db.connect(ctx, false); err != nil {
			db.mu.Lock()
			db.open--
			db.mu.Unlock()
			return false, err
		}
	}
	return true, db.readOn(ctx, c, fn)
}

func (db *DB) getReader(ctx context.Context) (*Conn, error) {
	select {
	case c := <-db.readers:
		return c, nil
	default:
	}
	db.mu.Lock()
	if db.closed {
		db.mu.Unlock()
		return nil, ErrClosed
	}
	if db.open < db.opts.Readers {
		db.open++
		db.mu.Unlock()
		c, err := db.connect(ctx, false)
		if err != nil {
			db.mu.Lock()
			db.open--
			db.mu.Unlock()
			return nil, err
		}
		return c, nil
	}
	db.mu.Unlock()
	select {
	case c := <-db.readers:
		return c, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (db *DB) putReader(c *Conn) {
	c.rollback() // never pool a connection inside a transaction
	db.mu.Lock()
	closed := db.closed
	db.mu.Unlock()
	if closed || !c.GetAutocommit() {
		c.close()
		if !closed {
			db.mu.Lock()
			db.open--
			db.mu.Unlock()
		}
		return
	}
	db.readers <- c
}

func (db *DB) isClosed() bool {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.closed
}

// Close waits for the running write transaction, then closes every
// connection. Reader connections still in use close when they are returned.
func (db *DB) Close() error {
	db.wsem <- struct{}{}
	defer func() { <-db.wsem }()
	db.mu.Lock()
	if db.closed {
		db.mu.Unlock()
		return nil
	}
	db.closed = true
	db.mu.Unlock()
	for {
		select {
		case c := <-db.readers:
			c.close()
			continue
		default:
		}
		break
	}
	return db.writer.close()
}

// Stmt returns a cached prepared statement for sql. Callers must Reset it
// (Done does) before the transaction ends.
func (c *Conn) Stmt(sql string) (*sqlite3.Stmt, error) {
	if s, ok := c.stmts[sql]; ok {
		return s, nil
	}
	s, _, err := c.Prepare(sql)
	if err != nil {
		return nil, fmt.Errorf("prepare %q: %w", sql, err)
	}
	c.stmts[sql] = s
	return s, nil
}

// Exec runs sql. With args it runs one cached prepared statement with args
// bound in order; without args sql may hold several statements.
func (c *Conn) Exec(sql string, args ...any) error {
	if len(args) == 0 {
		return c.Conn.Exec(sql)
	}
	s, err := c.Stmt(sql)
	if err != nil {
		return err
	}
	if err := Bind(s, args...); err != nil {
		return Done(s, err)
	}
	return Done(s, s.Exec())
}

// Query prepares sql, binds args and returns the statement ready to Step.
// The caller must call Done when finished with the rows.
func (c *Conn) Query(sql string, args ...any) (*sqlite3.Stmt, error) {
	s, err := c.Stmt(sql)
	if err != nil {
		return nil, err
	}
	if err := Bind(s, args...); err != nil {
		return nil, Done(s, err)
	}
	return s, nil
}

// Done resets s (keeping it cached) and returns the first error among err,
// the statement's step error and the reset error.
func Done(s *sqlite3.Stmt, err error) error {
	serr := s.Err()
	rerr := s.Reset()
	s.ClearBindings()
	if err != nil {
		return err
	}
	if serr != nil {
		return serr
	}
	return rerr
}

// Bind binds args to s by position. Supported types: int, int64, uint32,
// string, []byte, bool, nil.
func Bind(s *sqlite3.Stmt, args ...any) error {
	for i, a := range args {
		p := i + 1
		var err error
		switch v := a.(type) {
		case nil:
			err = s.BindNull(p)
		case int:
			err = s.BindInt64(p, int64(v))
		case int64:
			err = s.BindInt64(p, v)
		case uint32:
			err = s.BindInt64(p, int64(v))
		case bool:
			err = s.BindBool(p, v)
		case string:
			err = s.BindText(p, v)
		case []byte:
			if v == nil {
				err = s.BindNull(p)
			} else {
				err = s.BindBlob(p, v)
			}
		default:
			err = fmt.Errorf("sqldb: cannot bind %T", a)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// rollback ends an open transaction. It clears the connection's
// interrupt first: a rollback after a cancelled context (the usual reason
// for one) must not be interrupted itself, or the connection would go back
// to its pool still inside the transaction.
func (c *Conn) rollback() {
	if !c.GetAutocommit() {
		old := c.SetInterrupt(context.Background())
		c.Conn.Exec("ROLLBACK")
		c.SetInterrupt(old)
	}
}

func (c *Conn) close() error {
	for _, s := range c.stmts {
		s.Close()
	}
	c.stmts = nil
	return c.Conn.Close()
}

// wrapCtx replaces SQLite's interrupt error with the context's error when the
// context ended, so callers see context.Canceled or DeadlineExceeded.
func wrapCtx(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, sqlite3.INTERRUPT) {
		return ctx.Err()
	}
	return err
}
