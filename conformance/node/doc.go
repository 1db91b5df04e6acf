// Package node runs Node.js's own filesystem tests (test/parallel/test-fs-*
// from Node 25.8.1, shipped as /work/shared/conformance/node-fs-tests.tar.xz)
// inside nook's JavaScript backend, one fresh in-memory workspace per test
// file with Node's test/fixtures imported and test/common replaced by the
// project's own helpers (testdata/common: mustCall, mustSucceed, tmpdir,
// fixtures, ...).
//
// A test passes when its run ends with status 0 (every mustCall is checked
// when the process emits 'exit', as Node's runner does); one that calls
// common.skip is counted apart. The suite extracts the archive with tar, so
// it is behind the build tag nodeconformance:
//
//	go test -tags nodeconformance -count=1 -timeout 30m ./conformance/node/
//
// NOOK_NODE_FS_TESTS names the archive when it is not found in a parent
// directory's shared/conformance/. The per-file results (pass, skip, fail and
// the reason) are written to RESULTS.md beside this file, and the test fails
// when fewer files pass than the checked-in floor.
package node
