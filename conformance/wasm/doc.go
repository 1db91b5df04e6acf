// Package wasm runs Go's own standard-library tests (os, io/fs,
// path/filepath, testing/fstest), built for GOOS=wasip1, as guests of
// nook's wasm backend over a workspace, and compares them with the same
// binaries under plain wazero over a host directory.
//
// The suite is slow (four test binaries to build and compile), so it is
// behind the build tag wasmconformance:
//
//	go test -tags wasmconformance -v -timeout 30m ./conformance/wasm/
//
// It prints, per package, the pass/fail/skip counts of both runs, and fails
// when a test that passes over a host directory does not pass over the
// workspace.
package wasm
