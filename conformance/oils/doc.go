// Package oils runs the Oils project's shell spec tests (82 spec/*.test.sh
// files of oils-for-unix/oils, shipped as
// /work/shared/conformance/oils-spec-tests.tar.xz) through nook's shell
// backend, and compares each case's stdout and exit status with what GNU
// bash is expected to give: bash's qualified expectation (## OK bash,
// ## BUG bash, ## N-I bash) where the case has one, else the default.
//
// Each test file gets a fresh in-memory workspace with the suite's
// spec/testdata and nook's stand-ins for its Python helpers (testdata/bin:
// argv.py, printenv.py, ... as node or shell scripts) under
// /workspace/oils/spec; each case runs in a fresh directory that is its
// cwd and $TMP, with $SH naming the shell and spec/bin first in PATH. The
// suite reads the archive from Go, behind the build tag oilsconformance:
//
//	go test -tags oilsconformance -count=1 -timeout 15m ./conformance/oils/
//
// NOOK_OILS_SPEC_TESTS names the archive when it is not found in a parent
// directory's shared/conformance/. The results (a table per file, the
// failures by cause) are written to RESULTS.md beside this file, and the
// test fails when fewer cases pass than the checked-in floor, or when any
// case makes the backend panic.
package oils
