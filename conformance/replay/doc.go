// Package replay holds the conformance suites of interrupted runs: what a
// run whose process dies at any instant does under each interrupt policy.
//
// crash_test.go runs a JavaScript module in a child process (the test binary
// re-executed), SIGKILLs it at a random moment and resumes the run in a
// fresh workspace: the replay policy must give the result, the output and
// the files of an uninterrupted run, with every host-module call executed
// once (or twice only when the kill landed while it was in flight, before
// its result was journaled); the fail policy must fail the run with its
// reason; the database must pass PRAGMA integrity_check every time.
// NOOK_CRASH_ITERATIONS sets the number of iterations (default 200, 10 with
// -short) and NOOK_CRASH_SEED the seed of the kill delays.
//
// scenarios_test.go runs the scenarios of testdata/*.txtar (programs for
// the three backends, their inputs, host-module and fetch fakes, the
// expected result, output and files) through package
// conformance/scenario, as a user's suite runs: uninterrupted, then
// interrupted after each of their calls and resumed under each policy. The
// interruption is in-process: a backend wrapper copies the database (VACUUM
// INTO, a committed state, which is what a crash leaves) right after the
// k-th call of the run returns, and the copy is opened by a workspace whose
// clock is past the first runtime's lease, so that it sees the run as
// orphaned, as a new process would after a crash.
package replay
