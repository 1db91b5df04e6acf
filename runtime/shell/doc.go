// Package shell is nook's shell backend (id "shell"): a bash-compatible
// interpreter (mvdan.cc/sh/v3) whose every file access, glob, stat and
// command goes to the workspace through the run's [runtime.Host].
//
// Commands (cat, ls, grep, sed, awk, find, jq, tar, ...) are implemented
// in Go in the internal coreutils package; there is no fallback to host
// binaries, no host environment, no host working directory, no process
// substitution (it would create FIFOs on the host) and no network.
//
// A run's result carries, in [runtime.Exit.Value], the JSON report of the
// files it changed:
//
//	{"changes": {"created": [...], "updated": [...], "deleted": [...],
//	             "dirsCreated": [...], "dirsDeleted": [...]}}
//
// See RATIONALE.md for the decisions and the known differences from GNU
// bash and coreutils.
package shell
