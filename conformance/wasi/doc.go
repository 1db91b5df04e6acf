// Package wasi runs the official WASI testsuite (WebAssembly/wasi-testsuite,
// its 72 wasm32-wasip1 tests written in Rust, C and AssemblyScript) against
// nook's wasm backend, each test's root imported into a fresh workspace and
// preopened as /, and against plain wazero over a host directory, in the
// same run. It judges a test as the suite's reference runner does: args,
// env as the whole environment, the exit code (default 0) and stdout as a
// prefix, 5 seconds per test.
//
// The suite is read from ../../../shared/conformance (or
// $NOOK_WASI_TESTSUITE) and is behind the build tag wasiconformance:
//
//	go test -tags wasiconformance -count=1 -v ./conformance/wasi/
//
// It prints a table of both runs and their totals, lists each failure with
// its reason (with NOOK_WASI_VERBOSE set, both runs' whole stderr), and
// fails when nook passes fewer tests than wantNookPasses.
package wasi
