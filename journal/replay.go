package journal

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/ncruces/go-sqlite3"
	"github.com/nookdev/nook/internal/sqldb"
)

// What a replay-policy run journals, besides its output: every call out of
// its sandbox (CallRecord), its clock reads and timer firings (Tick), and
// the answers to its calls that waited for one.

// CallRecord is one journaled call.
type CallRecord struct {
	Seq      int64
	Kind, Op string
	Request  []byte // the JSON of the request
	Response []byte // the JSON of the result, when done without failure
	Failure  []byte // the JSON of the failure, when done with one
	Done     bool   // false: started and never finished (an interruption)
	Unsafe   bool   // the function is unsafe to repeat
}

// The tick streams.
const (
	ClockStream = 1
	TimerStream = 2
)

// Tick is one clock read or timer firing.
type Tick struct {
	Stream int
	N      int64 // its number in its stream, from 0
	Value  []byte
}

// Recording is everything journaled for a run, to replay it.
type Recording struct {
	Calls   map[int64]*CallRecord
	Ticks   map[int][][]byte // by stream, in order
	Answers map[int64][]byte // answered waits, by call number
	Waiting map[int64]bool   // calls still waiting
}

// ErrNotWaiting: no call of that run waits for an answer.
var ErrNotWaiting = errors.New("journal: the call is not waiting for an answer")

func insertTicks(c *sqldb.Conn, run string, ticks []Tick) error {
	for _, t := range ticks {
		if err := c.Exec(`INSERT OR REPLACE INTO journal_ticks(run, stream, n, value) VALUES (?, ?, ?, ?)`,
			run, t.Stream, t.N, t.Value); err != nil {
			return err
		}
	}
	return nil
}

func putCall(c *sqldb.Conn, run string, r *CallRecord) error {
	return c.Exec(`INSERT OR REPLACE INTO journal_calls(run, seq, kind, op, request, response, failure, done, unsafe)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, run, r.Seq, r.Kind, r.Op, r.Request, nilBlob(r.Response),
		nilBlob(r.Failure), r.Done, r.Unsafe)
}

// WriteCall performs a call and journals it in one transaction: fn runs
// with a context that joins the transaction (a filesystem operation made
// with it commits together with its record) and returns the record, which
// is stored with ticks. When fn fails, nothing is stored.
func (st *Store) WriteCall(ctx context.Context, run string, ticks []Tick, fn func(ctx context.Context) (*CallRecord, error)) error {
	return st.db.Write(ctx, func(c *sqldb.Conn) error {
		if err := insertTicks(c, run, ticks); err != nil {
			return err
		}
		r, err := fn(sqldb.Join(ctx, st.db, c))
		if err != nil {
			return err
		}
		return putCall(c, run, r)
	})
}

// PutCall stores a call record (with ticks) in a transaction of its own:
// a started unsafe call before it runs, a finished external call after.
func (st *Store) PutCall(ctx context.Context, run string, ticks []Tick, r *CallRecord) error {
	return st.db.Write(ctx, func(c *sqldb.Conn) error {
		if err := insertTicks(c, run, ticks); err != nil {
			return err
		}
		return putCall(c, run, r)
	})
}

// Recording returns what was journaled for run.
func (st *Store) Recording(ctx context.Context, run string) (*Recording, error) {
	rec := &Recording{Calls: map[int64]*CallRecord{}, Ticks: map[int][][]byte{},
		Answers: map[int64][]byte{}, Waiting: map[int64]bool{}}
	err := st.db.Read(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT seq, kind, op, request, response, failure, done, unsafe FROM journal_calls
			WHERE run = ? ORDER BY seq`, run)
		if err != nil {
			return err
		}
		for s.Step() {
			r := &CallRecord{Seq: s.ColumnInt64(0), Kind: s.ColumnText(1), Op: s.ColumnText(2),
				Request: append([]byte{}, s.ColumnRawBlob(3)...), Done: s.ColumnBool(6), Unsafe: s.ColumnBool(7)}
			if s.ColumnType(4) != sqlite3.NULL {
				r.Response = append([]byte{}, s.ColumnRawBlob(4)...)
			}
			if s.ColumnType(5) != sqlite3.NULL {
				r.Failure = append([]byte{}, s.ColumnRawBlob(5)...)
			}
			rec.Calls[r.Seq] = r
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		s, err = c.Query(`SELECT stream, value FROM journal_ticks WHERE run = ? ORDER BY stream, n`, run)
		if err != nil {
			return err
		}
		for s.Step() {
			k := s.ColumnInt(0)
			rec.Ticks[k] = append(rec.Ticks[k], append([]byte{}, s.ColumnRawBlob(1)...))
		}
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		s, err = c.Query(`SELECT seq, answer FROM journal_waits WHERE run = ?`, run)
		if err != nil {
			return err
		}
		for s.Step() {
			if s.ColumnType(1) == sqlite3.NULL {
				rec.Waiting[s.ColumnInt64(0)] = true
			} else {
				rec.Answers[s.ColumnInt64(0)] = append([]byte{}, s.ColumnRawBlob(1)...)
			}
		}
		return sqldb.Done(s, nil)
	})
	return rec, err
}

// Program returns the prepared program stored for a run's replay.
func (st *Store) Program(ctx context.Context, run string) ([]byte, error) {
	var prog []byte
	err := st.db.Read(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT program FROM journal_runs WHERE id = ?`, run)
		if err != nil {
			return err
		}
		if !s.Step() {
			return sqldb.Done(s, ErrNotFound)
		}
		prog = append([]byte(nil), s.ColumnRawBlob(0)...)
		return sqldb.Done(s, nil)
	})
	return prog, err
}

// Claim makes owner the owner of an interrupted run that from owned (or
// that no one owns, when it waited), starting a new attempt. A run that
// journaled more calls since its last attempt began gets its attempts
// counted afresh. It reports false when someone else claimed it first or
// the run finished.
func (st *Store) Claim(ctx context.Context, run, from, owner string) (attempts int, ok bool, err error) {
	err = st.db.Write(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT count(*) FROM journal_calls WHERE run = ?`, run)
		if err != nil {
			return err
		}
		s.Step()
		calls := s.ColumnInt64(0)
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		if err := c.Exec(`UPDATE journal_runs SET owner = ?,
			attempts = CASE WHEN progress < ? THEN 2 ELSE attempts + 1 END, progress = ?
			WHERE id = ? AND owner = ? AND finished IS NULL AND waiting = 0`, owner, calls, calls, run, from); err != nil {
			return err
		}
		if ok = c.Changes() == 1; !ok {
			return nil
		}
		s, err = c.Query(`SELECT attempts FROM journal_runs WHERE id = ?`, run)
		if err != nil {
			return err
		}
		s.Step()
		attempts = s.ColumnInt(0)
		return sqldb.Done(s, nil)
	})
	return attempts, ok, err
}

// Wait is a call waiting for an answer.
type Wait struct {
	Run     string
	Seq     int64
	Payload []byte // JSON
	Since   time.Time
}

// AddWait records that call seq of run waits for an answer, and releases
// the run: it has no owner while it waits, and is not an orphan.
func (st *Store) AddWait(ctx context.Context, run string, seq int64, payload []byte, since time.Time) error {
	return st.db.Write(ctx, func(c *sqldb.Conn) error {
		if err := c.Exec(`INSERT OR REPLACE INTO journal_waits(run, seq, payload, since) VALUES (?, ?, ?, ?)`,
			run, seq, payload, since.UnixNano()); err != nil {
			return err
		}
		return c.Exec(`UPDATE journal_runs SET waiting = 1, owner = '' WHERE id = ? AND finished IS NULL`, run)
	})
}

// Pending lists the calls waiting for an answer, oldest first.
func (st *Store) Pending(ctx context.Context) ([]Wait, error) {
	var ws []Wait
	err := st.db.Read(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT w.run, w.seq, w.payload, w.since FROM journal_waits w
			JOIN journal_runs r ON r.id = w.run WHERE w.answer IS NULL AND r.finished IS NULL ORDER BY w.since, w.run, w.seq`)
		if err != nil {
			return err
		}
		for s.Step() {
			ws = append(ws, Wait{Run: s.ColumnText(0), Seq: s.ColumnInt64(1),
				Payload: append([]byte{}, s.ColumnRawBlob(2)...), Since: time.Unix(0, s.ColumnInt64(3))})
		}
		return sqldb.Done(s, nil)
	})
	return ws, err
}

// Respond stores the answer to a waiting call and, when no other call of
// the run still waits, makes the run resumable (waiting cleared, the time
// it waited added to Waited). It fails with ErrNotWaiting when the call is
// not waiting. since is when the call began to wait.
func (st *Store) Respond(ctx context.Context, run string, seq int64, answer []byte, now time.Time) (since time.Time, resumable bool, err error) {
	err = st.db.Write(ctx, func(c *sqldb.Conn) error {
		s, err := c.Query(`SELECT since FROM journal_waits w JOIN journal_runs r ON r.id = w.run
			WHERE w.run = ? AND w.seq = ? AND w.answer IS NULL AND r.finished IS NULL`, run, seq)
		if err != nil {
			return err
		}
		found := s.Step()
		began := s.ColumnInt64(0)
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		if !found {
			return ErrNotWaiting
		}
		since = time.Unix(0, began)
		if err := c.Exec(`UPDATE journal_waits SET answer = ? WHERE run = ? AND seq = ?`, answer, run, seq); err != nil {
			return err
		}
		s, err = c.Query(`SELECT count(*) FROM journal_waits WHERE run = ? AND answer IS NULL`, run)
		if err != nil {
			return err
		}
		s.Step()
		resumable = s.ColumnInt(0) == 0
		if err := sqldb.Done(s, nil); err != nil {
			return err
		}
		if !resumable {
			return nil
		}
		return c.Exec(`UPDATE journal_runs SET waiting = 0, waited = waited + ? WHERE id = ?`,
			max(0, now.UnixNano()-began), run)
	})
	return since, resumable, err
}

// Calls returns the journaled calls of a run, in order (for inspection).
func (st *Store) Calls(ctx context.Context, run string) ([]*CallRecord, error) {
	rec, err := st.Recording(ctx, run)
	if err != nil {
		return nil, err
	}
	out := make([]*CallRecord, 0, len(rec.Calls))
	for _, r := range rec.Calls {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *CallRecord) int { return cmp.Compare(a.Seq, b.Seq) })
	return out, nil
}
