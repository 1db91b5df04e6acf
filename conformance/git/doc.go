// Package git holds the differential suite of nook's git: scripts of git
// command lines, each run by the git command line (/usr/bin/git) in a host
// directory and by nook's git (package tools/git, in process) over a
// workspace built the same way, with the same identity and a fixed clock.
// Every command's stdout, stderr and exit status must agree, and so must
// the resulting worktree and `git log --all --format=%H%n%T` (commit hashes
// agree because identity and times are fixed). The real git then runs
// `git fsck --strict` and `git status` on nook's repository, exported.
//
// Differences by design are listed in differential_test.go with the
// reason; a listed script that starts agreeing fails the suite, so the
// list stays true. The suite skips only when git is not installed.
package git
