// Package worker is the process isolation tier of the runtime: each run's
// program executes in a worker process whose only door is the run's Host,
// carried over a pipe to the parent, which keeps the journal, the
// database, the host modules and the network.
//
// From outside, the parent enforces a run's memory (resident size past
// RuntimeMargin, Limits.MaxMemoryBytes) and CPU time (Limits.MaxCPUTime),
// both shared with the runs nested in it (summed over their workers), and
// its open files (Limits.MaxOpenFiles) and timeout on its worker, and
// kills it (SIGKILL) over a limit; a worker that crashes (a Go fatal error such as a stack
// overflow) ends only its run. Inside, a worker starts with an empty
// environment and only its three pipes, and sandboxes itself with Landlock
// and a seccomp filter; a privileged parent gives it an empty network
// namespace. RATIONALE.md says what each layer stops.
//
// Enabling it takes two steps: the program that hosts the runtime must be
// able to act as a worker, and the runtime must be given a Pool.
//
//	func main() {
//		// Returns at once unless started as a worker.
//		worker.Main(js.Builder, shell.Builder, wasm.Builder)
//		pool, err := worker.New(worker.Options{})
//		...
//		ws, err := nook.Open(ctx, path, nook.WithBackends(backends()...), nook.WithIsolation(pool))
//	}
//
// The pool re-executes the program (os.Executable) with the argument Arg;
// Options.Command points it at another worker binary instead (`nook worker`
// is one, with the builders of nook's backends). A worker rebuilds each
// backend of its parent from the recipe the parent sends
// (runtime.Rebuildable) with the builder of that name, so the parent's
// options hold in the worker; this package links no backend. A test binary
// is its own worker when its TestMain calls Main first.
package worker
