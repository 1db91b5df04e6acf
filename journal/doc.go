// Package journal keeps the records of runs in the workspace database: one
// row per run (its request, status, exit code, value and output counters)
// and the run's output events, each with a sequence number, stored as they
// happen so a reader can re-attach from any cursor, in this process or in
// another one sharing the workspace. It is the only owner of the journal_*
// tables.
//
// Runs are owned by the process that runs them. Each owner holds a lease
// that it renews while it lives; a run still marked running whose owner's
// lease expired was interrupted (the process crashed or was killed), and
// the next owner to look finishes it.
package journal
