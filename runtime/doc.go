// Package runtime runs model-written code against a workspace.
//
// The runtime is backend-neutral. It knows runs, handles, policies, limits
// and retention; a [Backend] knows only how to run one source. Exec prepares
// the source on its backend (so a bad program fails before any record
// exists), stores a run record in the workspace database, and starts the
// program in a goroutine. The returned [Handle] streams the run's output
// events, each with a sequence number; the events are stored as they happen,
// so [Runtime.GetExec] can re-attach from any cursor, in this process or in
// another one sharing the workspace.
//
// Sandboxed code reaches the outside world only through the [Host] the
// runtime hands its program: filesystem operations, host-module functions,
// fetch, the clock, randomness and output all go through it. That is the
// seam where the journal records a live run and answers a replayed one.
package runtime
