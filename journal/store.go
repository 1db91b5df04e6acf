package journal

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/ncruces/go-sqlite3"
	"github.com/nookdev/nook/internal/sqldb"
	"github.com/nookdev/nook/internal/wsdb"
	"github.com/nookdev/nook/vfs"
)

// Store reads and writes run records. It is safe for concurrent use.
type Store struct {
	db *sqldb.DB
}

// Errors of the store.
var (
	// ErrNotFound: no run with that id.
	ErrNotFound = errors.New("journal: no such run")
	// ErrExists: a run with that id already exists.
	ErrExists = errors.New("journal: run exists")
)

// Open prepares the journal tables in the database the filesystem fsys
// lives in and returns a store over them: a run's records and the file
// changes its code makes commit in the same transactions.
func Open(ctx context.Context, fsys *vfs.FS) (*Store, error) {
	db := wsdb.DB(fsys)
	if err := db.Write(ctx, migrate); err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// Statuses of a run.
const (
	Running   = "running"
	Completed = "completed"
	Failed    = "failed"
	Cancelled = "cancelled"
	TimedOut  = "timed_out"
)

// Run is the record of one run.
type Run struct {
	ID      string
	Backend string
	Status  string // Running until the run finishes
	// ExitCode, Value and Error are set when the run finished.
	ExitCode int
	Value    json.RawMessage
	Error    string
	// Changes is the JSON of the files the run changed, when its backend
	// reports them.
	Changes json.RawMessage
	// Request is the JSON of what was asked (source, input, env, ...).
	Request json.RawMessage
	// Owner is the process (runtime instance) running or that ran it.
	Owner    string
	Created  time.Time
	Finished time.Time // zero while running
	// LastSeq is the sequence number of the newest event.
	LastSeq int64
	// Output counters: bytes written to each stream, and the workspace
	// files that hold all of a stream once it outgrew the stored events.
	StdoutBytes, StderrBytes int64
	StdoutPath, StderrPath   string
	// OutputError says why the output could not be kept in full: a spill
	// file that could not be written holds only part of its stream.
	OutputError string
	// KillRequested is set when someone asked for the run to stop.
	KillRequested bool
	// Policy is what happens when the run is interrupted: "fail",
	// "restart" or "replay". Attempts counts its attempts (the first
	// included); Progress is how many calls it had journaled when its
	// current attempt began.
	Policy   string
	Attempts int
	Progress int64
	// Waiting is set while a host-module call of the run waits for an
	// answer; Waited is how long it waited in all.
	Waiting bool
	Waited  time.Duration
	// Program is the prepared program a replay runs again (only stored
	// for runs that can be replayed; Get does not load it).
	Program []byte
}

// EventKind says what an event carries.
type EventKind int

// The kinds of events.
const (
	Stdout EventKind = 1
	Stderr EventKind = 2
	// Truncated marks where stored output ends; its data is the JSON of
	// the spill file paths ({"stdout": "...", "stderr": "..."}).
	Truncated EventKind = 3
	// Exit is the last event of a run; its data is the JSON of the exit.
	Exit EventKind = 4
)

// Event is one stored event of a run.
type Event struct {
	Seq  int64
	Kind EventKind
	Data []byte
}

// Progress is a run's output counters after some events.
type Progress struct {
	StdoutBytes, StderrBytes int64
	StdoutPath, StderrPath   string
	OutputError              string // see Run.OutputError
}

const runColumns = `id, backend, status, exit_code, value, error, request, owner, created, finished,
	last_seq, stdout_bytes, stderr_bytes, stdout_path, stderr_path, kill, changes,
	policy, attempts, progress, waiting, waited, output_error`

func scanRun(s *sqlite3.Stmt) *Run {
	r := &Run{
		ID:       s.ColumnText(0),
		Backend:  s.ColumnText(1),
		Status:   s.ColumnText(2),
		ExitCode: s.ColumnInt(3),
		Error:    s.ColumnText(5),
		Owner:    s.ColumnText(7),
		Created:  time.Unix(0, s.ColumnInt64(8)),
		LastSeq:  s.ColumnInt64(10),
	}
	if b := s.ColumnRawBlob(4); len(b) > 0 {
		r.Value = append(json.RawMessage(nil), b...)
	}
	r.Request = append(json.RawMessage(nil), s.ColumnRawBlob(6)...)
	if s.ColumnType(9) != sqlite3.NULL {
		r.Finished = time.Unix(0, s.ColumnInt64(9))
	}
	r.StdoutBytes = s.ColumnInt64(11)
	r.StderrBytes = s.ColumnInt64(12)
	r.StdoutPath = s.ColumnText(13)
	r.StderrPath = s.ColumnText(14)
	r.KillRequested = s.ColumnBool(15)
	if b := s.ColumnRawBlob(16); len(b) > 0 {
		r.Changes = append(json.RawMessage(nil), b...)
	}
	r.Policy = s.ColumnText(17)
	r.Attempts = s.ColumnInt(18)
	r.Progress = s.ColumnInt64(19)
	r.Waiting = s.ColumnBool(20)
	r.Waited = time.Duration(s.ColumnInt64(21))
	r.OutputError = s.ColumnText(22)
	return r
}

// Create inserts a new running run. It fails with ErrExists when the id is
// taken (by a running or a retained finished run).
func (st *Store) Create(ctx context.Context, r *Run) error {
	return st.db.Write(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT 1 FROM journal_runs WHERE id = ?`, r.ID)
		if err != nil {
			return err
		}
		exists := s.Step()
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		if exists {
			return ErrExists
		}
		req := []byte(r.Request)
		if req == nil {
			req = []byte("{}")
		}
		policy := r.Policy
		if policy == "" {
			policy = "fail"
		}
		return c.Exec(`INSERT INTO journal_runs(id, backend, status, request, owner, created, policy, program)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, r.ID, r.Backend, Running, req, r.Owner, r.Created.UnixNano(),
			policy, nilBlob(r.Program))
	})
}

// Append stores events of a running run and its output counters, in one
// transaction. The events' sequence numbers must follow the run's LastSeq.
//
// ticks (clock reads and timer firings of a replay-policy run) are stored
// in the same transaction: output that depends on a clock read must never
// be stored without the read, or a replay would print something else.
func (st *Store) Append(ctx context.Context, id string, evs []Event, p Progress, ticks []Tick) error {
	if len(evs) == 0 && len(ticks) == 0 {
		return nil
	}
	return st.db.Write(ctx, func(c *sqldb.Conn) error {
		if err := insertTicks(c, id, ticks); err != nil {
			return err
		}
		if len(evs) == 0 {
			return nil
		}
		return appendTx(c, id, evs, p)
	})
}

func appendTx(c *sqldb.Conn, id string, evs []Event, p Progress) error {
	for _, e := range evs {
		data := e.Data
		if data == nil {
			data = []byte{}
		}
		if err := c.Exec(`INSERT INTO journal_events(run, seq, kind, data) VALUES (?, ?, ?, ?)`,
			id, e.Seq, int(e.Kind), data); err != nil {
			return err
		}
	}
	return c.Exec(`UPDATE journal_runs SET last_seq = ?, stdout_bytes = ?, stderr_bytes = ?,
		stdout_path = ?, stderr_path = ?, output_error = coalesce(?, output_error) WHERE id = ?`,
		evs[len(evs)-1].Seq, p.StdoutBytes, p.StderrBytes, nullable(p.StdoutPath), nullable(p.StderrPath),
		nullable(p.OutputError), id)
}

func nilBlob(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Final is how a run ended.
type Final struct {
	Status   string
	ExitCode int
	Value    json.RawMessage
	Error    string
	Changes  json.RawMessage
	Finished time.Time
	// KeepJournal keeps what was journaled for the run's replay (to verify
	// the run later); it goes when the run is deleted.
	KeepJournal bool
	// Ticks are the run's last unstored ticks (kept with KeepJournal).
	Ticks []Tick
}

// Retain says which finished runs to keep: none that finished before
// Before, and at most Keep in all (the newest). A zero Keep keeps all.
type Retain struct {
	Before time.Time
	Keep   int
}

// Finish stores the last events of a run (ending with its exit event) and
// its final state, in one transaction, and applies ret in the same
// transaction, returning the records it deleted. It fails with ErrNotFound
// when the run is gone, and does nothing when it already finished (the
// first finisher wins).
func (st *Store) Finish(ctx context.Context, id string, evs []Event, p Progress, f Final, ret Retain) ([]*Run, error) {
	var gone []*Run
	err := st.db.Write(ctx, func(c *sqldb.Conn) error {
		gone = nil
		s, err := c.Query(`SELECT finished IS NULL FROM journal_runs WHERE id = ?`, id)
		if err != nil {
			return err
		}
		found := s.Step()
		running := found && s.ColumnBool(0)
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		if !found {
			return ErrNotFound
		}
		if !running {
			return nil
		}
		if len(evs) > 0 {
			if err := appendTx(c, id, evs, p); err != nil {
				return err
			}
		}
		var value, changes any
		if len(f.Value) > 0 {
			value = []byte(f.Value)
		}
		if len(f.Changes) > 0 {
			changes = []byte(f.Changes)
		}
		if err := c.Exec(`UPDATE journal_runs SET status = ?, exit_code = ?, value = ?, error = ?, changes = ?,
			finished = ?, output_error = coalesce(?, output_error) WHERE id = ?`, f.Status, f.ExitCode, value,
			nullable(f.Error), changes, f.Finished.UnixNano(), nullable(p.OutputError), id); err != nil {
			return err
		}
		if err := c.Exec(`UPDATE journal_state SET finished = finished + 1 WHERE id = ?`, 1); err != nil {
			return err
		}
		if !f.KeepJournal {
			if err := deleteJournal(c, id); err != nil {
				return err
			}
		} else if err := insertTicks(c, id, f.Ticks); err != nil {
			return err
		}
		if ret.Keep <= 0 {
			return nil
		}
		gone, err = pruneTx(c, ret)
		return err
	})
	return gone, err
}

// Get returns the record of one run, or ErrNotFound.
func (st *Store) Get(ctx context.Context, id string) (*Run, error) {
	var r *Run
	err := st.db.Read(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT `+runColumns+` FROM journal_runs WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if s.Step() {
			r = scanRun(s)
		}
		return sqldb.Done(s, nil)
	})
	if err == nil && r == nil {
		err = ErrNotFound
	}
	return r, err
}

// Load returns a run's record and all its events, read in one
// transaction, or ErrNotFound.
func (st *Store) Load(ctx context.Context, id string) (*Run, []Event, error) {
	var r *Run
	var evs []Event
	err := st.db.Read(ctx, func(c *sqldb.Conn) error {
		r, evs = nil, nil
		s, err := c.Query(`SELECT `+runColumns+` FROM journal_runs WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if s.Step() {
			r = scanRun(s)
		}
		if err := sqldb.Done(s, nil); err != nil || r == nil {
			return err
		}
		s, err = c.Query(`SELECT seq, kind, data FROM journal_events WHERE run = ? ORDER BY seq`, id)
		if err != nil {
			return err
		}
		for s.Step() {
			evs = append(evs, Event{Seq: s.ColumnInt64(0), Kind: EventKind(s.ColumnInt(1)),
				Data: append([]byte{}, s.ColumnRawBlob(2)...)})
		}
		return sqldb.Done(s, nil)
	})
	if err == nil && r == nil {
		err = ErrNotFound
	}
	return r, evs, err
}

// Events returns up to max events of a run with sequence numbers above
// after, in order.
func (st *Store) Events(ctx context.Context, id string, after int64, max int) ([]Event, error) {
	var evs []Event
	err := st.db.Read(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT seq, kind, data FROM journal_events WHERE run = ? AND seq > ? ORDER BY seq LIMIT ?`,
			id, after, max)
		if err != nil {
			return err
		}
		for s.Step() {
			evs = append(evs, Event{Seq: s.ColumnInt64(0), Kind: EventKind(s.ColumnInt(1)),
				Data: append([]byte{}, s.ColumnRawBlob(2)...)})
		}
		return sqldb.Done(s, nil)
	})
	return evs, err
}

// ListOptions filter List.
type ListOptions struct {
	// Running lists only running runs; Finished only finished ones.
	Running, Finished bool
	// Status, when set, lists only the runs with this status.
	Status string
	// Backend, when set, lists only the runs of this backend.
	Backend string
	// Offset skips that many of the newest matching runs (a page).
	Offset int
	// Limit bounds the list (default 100).
	Limit int
}

// List returns runs, newest first. The runs come from an index on their
// creation time, so a page costs its rows, not the table.
func (st *Store) List(ctx context.Context, o ListOptions) ([]*Run, error) {
	q, args := listQuery(o)
	var runs []*Run
	err := st.db.Read(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(q, args...)
		if err != nil {
			return err
		}
		for s.Step() {
			runs = append(runs, scanRun(s))
		}
		return sqldb.Done(s, nil)
	})
	return runs, err
}

// listQuery is List's statement. The page's ids come from the creation
// index alone (it covers created and id), so the rows an offset skips
// are never read; then the page's rows are read by id.
func listQuery(o ListOptions) (string, []any) {
	if o.Limit <= 0 {
		o.Limit = 100
	}
	var where []string
	var args []any
	switch {
	case o.Running && !o.Finished:
		where = append(where, "finished IS NULL")
	case o.Finished && !o.Running:
		where = append(where, "finished IS NOT NULL")
	}
	if o.Status != "" {
		where, args = append(where, "status = ?"), append(args, o.Status)
	}
	if o.Backend != "" {
		where, args = append(where, "backend = ?"), append(args, o.Backend)
	}
	q := `SELECT id FROM journal_runs INDEXED BY journal_runs_created`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q = `SELECT ` + runColumns + ` FROM journal_runs WHERE id IN (` + q +
		` ORDER BY created DESC, id DESC LIMIT ? OFFSET ?) ORDER BY created DESC, id DESC`
	return q, append(args, o.Limit, max(o.Offset, 0))
}

// Delete removes a finished run and its events and returns the record as
// it was (for its spill files). It fails with ErrNotFound for an unknown
// run and ErrRunning for a run that has not finished.
func (st *Store) Delete(ctx context.Context, id string) (*Run, error) {
	var r *Run
	err := st.db.Write(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT `+runColumns+` FROM journal_runs WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if s.Step() {
			r = scanRun(s)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		if r == nil {
			return ErrNotFound
		}
		if r.Finished.IsZero() {
			return ErrRunning
		}
		return deleteTx(c, id)
	})
	return r, err
}

// ErrRunning: the run has not finished.
var ErrRunning = errors.New("journal: run is still running")

// deleteJournal deletes what was kept for a run's replay.
func deleteJournal(c *sqldb.Conn, id string) error {
	for _, q := range []string{
		`DELETE FROM journal_calls WHERE run = ?`,
		`DELETE FROM journal_ticks WHERE run = ?`,
		`DELETE FROM journal_waits WHERE run = ?`,
		`UPDATE journal_runs SET program = NULL, waiting = 0 WHERE id = ?`,
	} {
		if err := c.Exec(q, id); err != nil {
			return err
		}
	}
	return nil
}

// deleteTx deletes a finished run and its events.
func deleteTx(c *sqldb.Conn, id string) error {
	if err := deleteJournal(c, id); err != nil {
		return err
	}
	if err := c.Exec(`DELETE FROM journal_events WHERE run = ?`, id); err != nil {
		return err
	}
	if err := c.Exec(`DELETE FROM journal_runs WHERE id = ?`, id); err != nil {
		return err
	}
	return c.Exec(`UPDATE journal_state SET finished = finished - ? WHERE id = 1`, c.Changes())
}

// Prune deletes finished runs that finished before before, then all but
// the keep newest finished runs. It returns the deleted records.
func (st *Store) Prune(ctx context.Context, before time.Time, keep int) ([]*Run, error) {
	var gone []*Run
	err := st.db.Write(ctx, func(c *sqldb.Conn) error {
		var err error
		gone, err = pruneTx(c, Retain{Before: before, Keep: keep})
		return err
	})
	return gone, err
}

func pruneTx(c *sqldb.Conn, ret Retain) ([]*Run, error) {
	// The cutoff is the finish time of the newest run past Keep, found by
	// walking the finished-runs index; then one range scan of that index
	// selects what to delete (usually nothing).
	cutoff := ret.Before.UnixNano()
	count := 0
	if ret.Keep > 0 {
		s, err := c.Query(`SELECT finished FROM journal_state WHERE id = ?`, 1)
		if err != nil {
			return nil, err
		}
		if s.Step() {
			count = s.ColumnInt(0)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return nil, err
		}
	}
	if ret.Keep > 0 && count > ret.Keep {
		s, err := c.Query(`SELECT finished FROM journal_runs WHERE finished IS NOT NULL
			ORDER BY finished DESC LIMIT 1 OFFSET ?`, ret.Keep)
		if err != nil {
			return nil, err
		}
		if s.Step() {
			cutoff = max(cutoff, s.ColumnInt64(0)+1)
		}
		if err := sqldb.Done(s, nil); err != nil {
			return nil, err
		}
	}
	var gone []*Run
	s, err := c.Query(`SELECT `+runColumns+` FROM journal_runs WHERE finished IS NOT NULL AND finished < ?`, cutoff)
	if err != nil {
		return nil, err
	}
	for s.Step() {
		gone = append(gone, scanRun(s))
	}
	if err := sqldb.Done(s, nil); err != nil {
		return nil, err
	}
	if len(gone) > 0 {
		if gone, err = keepNested(c, gone); err != nil {
			return nil, err
		}
	}
	for _, r := range gone {
		if err := deleteTx(c, r.ID); err != nil {
			return nil, err
		}
	}
	return gone, nil
}

// keepNested removes from gone the nested runs of runs still running: a
// run whose id is a running run's id, a ".", and more (the runtime names a
// nested run PARENT.xN) is kept until that run finishes, which may still
// read it (a replay attaches to it).
func keepNested(c *sqldb.Conn, gone []*Run) ([]*Run, error) {
	s, err := c.Query(`SELECT id FROM journal_runs WHERE finished IS NULL`)
	if err != nil {
		return nil, err
	}
	var running []string
	for s.Step() {
		running = append(running, s.ColumnText(0)+".")
	}
	if err := sqldb.Done(s, nil); err != nil {
		return nil, err
	}
	if len(running) == 0 {
		return gone, nil
	}
	return slices.DeleteFunc(gone, func(r *Run) bool {
		return slices.ContainsFunc(running, func(p string) bool { return strings.HasPrefix(r.ID, p) })
	}), nil
}

// RequestKill marks a running run to be stopped by its owner and reports
// whether it was running; killing a finished run changes nothing. It fails
// with ErrNotFound for an unknown run.
func (st *Store) RequestKill(ctx context.Context, id string) (bool, error) {
	running := false
	err := st.db.Write(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT finished IS NULL FROM journal_runs WHERE id = ?`, id)
		if err != nil {
			return err
		}
		found := s.Step()
		running = found && s.ColumnBool(0)
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		if !found {
			return ErrNotFound
		}
		if !running {
			return nil
		}
		return c.Exec(`UPDATE journal_runs SET kill = 1 WHERE id = ?`, id)
	})
	return running, err
}

// KillRequests returns the running runs of owner that someone asked to
// stop.
func (st *Store) KillRequests(ctx context.Context, owner string) ([]string, error) {
	var ids []string
	err := st.db.Read(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT id FROM journal_runs WHERE owner = ? AND finished IS NULL AND kill = 1`, owner)
		if err != nil {
			return err
		}
		for s.Step() {
			ids = append(ids, s.ColumnText(0))
		}
		return sqldb.Done(s, nil)
	})
	return ids, err
}

// Renew extends owner's lease to expires. The lease records this process's
// host name and pid.
func (st *Store) Renew(ctx context.Context, owner string, expires time.Time) error {
	return st.db.Write(ctx, func(c *sqldb.Conn) error {
		return c.Exec(`INSERT INTO journal_owners(owner, expires, host, pid) VALUES (?, ?, ?, ?)
			ON CONFLICT(owner) DO UPDATE SET expires = excluded.expires`,
			owner, expires.UnixNano(), hostname, os.Getpid())
	})
}

// Release ends owner's lease.
func (st *Store) Release(ctx context.Context, owner string) error {
	return st.db.Write(ctx, func(c *sqldb.Conn) error {
		return c.Exec(`DELETE FROM journal_owners WHERE owner = ?`, owner)
	})
}

// ReleaseAll ends every owner's lease, live or not, so that the runs they
// left running are interrupted (Orphans lists them). Only a caller that
// knows no other process has the workspace open may call it: a fleet node
// that has just taken the workspace over, restored from the replicated
// log, where every owner recorded is a process of an earlier owner (dead,
// or fenced off by the log) whatever its lease, host and pid say.
func (st *Store) ReleaseAll(ctx context.Context) error {
	return st.db.Write(ctx, func(c *sqldb.Conn) error {
		return c.Exec(`DELETE FROM journal_owners`)
	})
}

var hostname, _ = os.Hostname()

// live reports whether a lease is live at now: not expired and, when it
// was taken on this host, its process still exists.
func live(expires int64, host string, pid int64, now time.Time) bool {
	if expires <= now.UnixNano() {
		return false
	}
	if host == hostname && pid > 0 && pid != int64(os.Getpid()) {
		if err := syscall.Kill(int(pid), 0); errors.Is(err, syscall.ESRCH) {
			return false
		}
	}
	return true
}

// Orphans returns the running runs whose owner holds no live lease at now:
// their process died (or closed without finishing them).
func (st *Store) Orphans(ctx context.Context, now time.Time) ([]*Run, error) {
	var runs []*Run
	err := st.db.Read(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT ` + prefixed("r.") + `, o.expires, o.host, o.pid FROM journal_runs r
			LEFT JOIN journal_owners o ON o.owner = r.owner WHERE r.finished IS NULL AND r.waiting = 0`)
		if err != nil {
			return err
		}
		for s.Step() {
			run := scanRun(s)
			n := strings.Count(runColumns, ",") + 1 // the owner's columns follow the run's
			if s.ColumnType(n) == sqlite3.NULL || !live(s.ColumnInt64(n), s.ColumnText(n+1), s.ColumnInt64(n+2), now) {
				runs = append(runs, run)
			}
		}
		return sqldb.Done(s, nil)
	})
	return runs, err
}

// Alive reports whether owner holds a live lease at now.
func (st *Store) Alive(ctx context.Context, owner string, now time.Time) (bool, error) {
	alive := false
	err := st.db.Read(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT expires, host, pid FROM journal_owners WHERE owner = ?`, owner)
		if err != nil {
			return err
		}
		alive = s.Step() && live(s.ColumnInt64(0), s.ColumnText(1), s.ColumnInt64(2), now)
		return sqldb.Done(s, nil)
	})
	return alive, err
}

// prefixed returns runColumns with each column qualified by p.
func prefixed(p string) string {
	cols := strings.Split(runColumns, ",")
	for i, c := range cols {
		cols[i] = p + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}
