package journal

import (
	"fmt"

	"github.com/nookdev/nook/internal/sqldb"
)

// SchemaVersion is the version of the journal tables this build writes.
const SchemaVersion = 3

// schemaV1 creates the journal tables.
//
//   - journal_state: the schema version, and the number of finished runs
//     (so that retention knows without counting when there are too many).
//   - journal_runs: one row per run. Times are Unix nanoseconds; status is
//     running until the run finishes. request holds the JSON of what was
//     asked (source, input, env, ...), so the run can be shown and, later,
//     re-run. kill is set by any process that wants the run stopped; the
//     owner sees it and cancels.
//   - journal_events: the output events of a run, by sequence number:
//     kind 1 stdout, 2 stderr, 3 truncated (data names the spill files), 4
//     exit (data is the JSON of the exit).
//   - journal_runs also holds a run's interrupt policy (fail, restart,
//     replay), its attempts, the calls it had journaled when its current
//     attempt began (progress), whether it waits for an answer, how long it
//     waited in all, and the prepared program a replay runs again.
//   - journal_calls: every call a replay-policy run made out of its
//     sandbox, by the run's call number: the request, and once done the
//     response or failure (JSON with bytes kept as {"$b": base64}).
//   - journal_ticks: clock reads (stream 1) and timer firings (stream 2) of
//     a replay-policy run, in order.
//   - journal_waits: host-module calls waiting for an answer (answer NULL)
//     or answered and not yet replayed.
//   - journal_owners: the lease of each live owner, with its host name and
//     process id so that a dead process on this host is seen at once.
const schemaV1 = `
CREATE TABLE journal_state(
	id INTEGER PRIMARY KEY CHECK (id = 1),
	schema_version INTEGER NOT NULL,
	finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE journal_runs(
	id TEXT PRIMARY KEY,
	backend TEXT NOT NULL,
	status TEXT NOT NULL,
	exit_code INTEGER,
	value BLOB,
	error TEXT,
	changes BLOB,
	request BLOB NOT NULL,
	owner TEXT NOT NULL,
	created INTEGER NOT NULL,
	finished INTEGER,
	last_seq INTEGER NOT NULL DEFAULT 0,
	stdout_bytes INTEGER NOT NULL DEFAULT 0,
	stderr_bytes INTEGER NOT NULL DEFAULT 0,
	stdout_path TEXT,
	stderr_path TEXT,
	kill INTEGER NOT NULL DEFAULT 0,
	policy TEXT NOT NULL DEFAULT 'fail',
	attempts INTEGER NOT NULL DEFAULT 1,
	progress INTEGER NOT NULL DEFAULT 0,
	waiting INTEGER NOT NULL DEFAULT 0,
	waited INTEGER NOT NULL DEFAULT 0,
	program BLOB
) WITHOUT ROWID;
CREATE INDEX journal_runs_finished ON journal_runs(finished) WHERE finished IS NOT NULL;
CREATE INDEX journal_runs_running ON journal_runs(owner) WHERE finished IS NULL;
CREATE TABLE journal_events(
	run TEXT NOT NULL,
	seq INTEGER NOT NULL,
	kind INTEGER NOT NULL,
	data BLOB NOT NULL,
	PRIMARY KEY (run, seq)
) WITHOUT ROWID;
CREATE TABLE journal_calls(
	run TEXT NOT NULL,
	seq INTEGER NOT NULL,
	kind TEXT NOT NULL,
	op TEXT NOT NULL,
	request BLOB NOT NULL,
	response BLOB,
	failure BLOB,
	done INTEGER NOT NULL,
	unsafe INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (run, seq)
) WITHOUT ROWID;
CREATE TABLE journal_ticks(
	run TEXT NOT NULL,
	stream INTEGER NOT NULL,
	n INTEGER NOT NULL,
	value BLOB NOT NULL,
	PRIMARY KEY (run, stream, n)
) WITHOUT ROWID;
CREATE TABLE journal_waits(
	run TEXT NOT NULL,
	seq INTEGER NOT NULL,
	payload BLOB NOT NULL,
	answer BLOB,
	since INTEGER NOT NULL,
	PRIMARY KEY (run, seq)
) WITHOUT ROWID;
CREATE TABLE journal_owners(
	owner TEXT PRIMARY KEY,
	expires INTEGER NOT NULL,
	host TEXT NOT NULL,
	pid INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO journal_state(id, schema_version) VALUES (1, 1);
`

// migrate brings the journal tables to SchemaVersion, refusing a database
// written by a newer build.
func migrate(c *sqldb.Conn) error {
	s, err := c.Query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal_state'`)
	if err != nil {
		return err
	}
	exists, err := s.Step(), s.Err()
	if err := sqldb.Done(s, err); err != nil {
		return err
	}
	if !exists {
		if err := c.Exec(schemaV1); err != nil {
			return err
		}
	}
	s, err = c.Query(`SELECT schema_version FROM journal_state WHERE id = 1`)
	if err != nil {
		return err
	}
	v := 0
	if s.Step() {
		v = s.ColumnInt(0)
	}
	if err := sqldb.Done(s, nil); err != nil {
		return err
	}
	if v > SchemaVersion {
		return fmt.Errorf("journal: the workspace's run tables are at schema version %d, newer than this build's %d; upgrade nook", v, SchemaVersion)
	}
	for ; v < SchemaVersion; v++ {
		if err := c.Exec(migrations[v]); err != nil {
			return fmt.Errorf("journal: schema migration v%d -> v%d: %w", v, v+1, err)
		}
		if err := c.Exec(`UPDATE journal_state SET schema_version = ? WHERE id = 1`, v+1); err != nil {
			return err
		}
	}
	return nil
}

// migrations[v] upgrades the journal tables from schema version v to v+1.
var migrations = map[int]string{
	// v2: output_error says why a run's output could not be kept in full
	// (its spill file could not be written).
	1: `ALTER TABLE journal_runs ADD COLUMN output_error TEXT`,
	// v3: runs listed newest first (List, the console's pages) come from
	// an index instead of sorting the table, blobs and all.
	2: `CREATE INDEX journal_runs_created ON journal_runs(created, id)`,
}
