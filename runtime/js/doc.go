// Package js is the JavaScript backend of the runtime: model-written ES
// modules and TypeScript run in a fresh goja runtime per run, with node:
// built-ins, ws: host modules and a journaled host as their only door out.
//
// Prepare bundles the source and every workspace file it imports (read
// from the vfs, confined to the backend's root) with esbuild into one
// script wrapped in an async function, which is how top-level await works
// in goja; TypeScript is stripped and syntax goja lacks is lowered on the
// way. Compiled programs are cached by source and options and reused while
// the files they were built from keep their content hashes.
//
// Run owns the runtime on one goroutine with its own event loop: host
// calls are numbered when issued and their completions applied in that
// order, so promise order never depends on goroutine scheduling; timers
// fire in (due time, creation order). When the entry's default export has
// settled, the loop drains what is still pending (timers, host calls)
// before the run ends, as Node does, bounded by the run's timeout. A run
// waiting for a promise when nothing is pending fails at once.
//
// Every limit in runtime.Limits that concerns a run stops it with a
// *runtime.LimitError: MaxStackDepth (goja's call stack), MaxAllocBytes
// (guards on the built-ins that allocate at once), MaxMemoryBytes (a
// process-wide heap watchdog with per-run attribution), MaxOutputBytes
// (the host refuses output), MaxResultBytes, the source limits in Prepare,
// and RegexpMatchTimeout for catastrophic backtracking. RATIONALE.md says
// why each works the way it does.
package js
