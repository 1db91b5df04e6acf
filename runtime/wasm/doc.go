// Package wasm is the WebAssembly backend of the runtime (id "wasm"): it
// runs WASI preview1 guests (Go with GOOS=wasip1, Rust, C, Zig,
// AssemblyScript) under wazero, with a filesystem that is the workspace
// itself.
//
// A run's source is a WebAssembly module: its raw bytes (a string starting
// with "\x00asm") or the workspace path of a .wasm file. The module is
// compiled once per content hash and cached in memory (and on disk when
// Options.CacheDir is set); each run instantiates it afresh with the run's
// arguments, environment, standard input and working directory. Its stdout
// and stderr become the run's output events, and its exit code is the one it
// passes to proc_exit.
//
// The guest's filesystem is the workspace directory Options.Root, preopened
// at Options.Mount (default: the same path, so a path the guest prints is a
// path the tools understand). It is never a host directory: every file
// operation of the guest is a call through the run's runtime.Host, so the
// journal can record it and replay it, and the guest's writes are visible to
// the tools and to other runs as soon as they are made. File descriptors
// live in this package (see RATIONALE.md).
//
// Guests that want more than WASI import the module "nook" (see
// guest/wasm/nook for the Go SDK): call reaches the host modules the
// workspace registers ("ws:<name>"), JSON in and JSON out.
//
// Runs are bounded by their timeout, by a memory limit in pages, by the
// output limit and by a module size limit. A guest in an infinite loop stops
// at its timeout without stalling the host process: see RATIONALE.md for how
// this is done without wazero's costly WithCloseOnContextDone.
package wasm
