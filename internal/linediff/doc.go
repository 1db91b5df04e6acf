// Package linediff is the project's one line diff: it splits text into
// lines, computes which lines of a are deleted and which of b inserted,
// groups them into changes and renders unified hunks with context. git's
// diff (tools/git), the tools' edit and patch reports (tools) and the
// shell's diff command (runtime/shell/internal/coreutils) all use it;
// each keeps only its own output details (git's hunk-header function
// context and --stat, GNU diff's normal format and file headers).
//
// The line diff is Myers' O((N+M)D) algorithm in its linear-space,
// divide-and-conquer form, with the middle snake chosen as GNU diff's
// diag and git's xdl_split choose it, run after the common prefix and
// suffix are trimmed. Runs of changed lines are then moved where GNU
// diff's shift_boundaries and git's xdl_change_compact move them
// ([Style]: git lets a run slide into the common prefix and suffix, GNU
// diff does not). The work is bounded by [MaxWork]: past it the
// differing middle is one replacement, still a correct diff, just not a
// minimal one. Not reproduced: GNU diff's discarding of lines with no
// match in the other file and git's indent heuristic, so a few ambiguous
// diffs (about one random three-letter text pair in nine) still place a
// change elsewhere than GNU diff, though never with more changed lines.
//
// Unified output follows GNU diff -u and git: "@@ -l,s +l,s @@" headers
// (",1" omitted, a zero-length side numbered by the line before it),
// deletions before insertions within a change, hunks merged when at most
// 2*context unchanged lines separate them, and "\ No newline at end of
// file" after a last line without one.
//
// Why not a library: github.com/hexops/gotextdiff v1.0.3 and
// github.com/aymanbagabas/go-udiff were checked against GNU diff and git
// (see RATIONALE.md in this directory); neither prints what they print.
package linediff
