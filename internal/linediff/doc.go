// Package linediff is the project's one line diff: it splits text into
// lines, computes which lines of a are deleted and which of b inserted,
// groups them into changes and renders unified hunks with context. git's
// diff (tools/git), the tools' edit and patch reports (tools) and the
// shell's diff command (runtime/shell/internal/coreutils) all use it;
// each keeps only its own output details (git's hunk-header function
// context and --stat, GNU diff's normal format and file headers).
//
// The line diff is Myers' O((N+M)D) algorithm in its linear-space,
// divide-and-conquer form (as in GNU diff and git's xdiff), run after the
// common prefix and suffix are trimmed. Each run of changed lines is then
// slid down as far as it can go while the diff stays the same, which is
// where both GNU diff and git put an ambiguous change ("a\nb\na\n" to
// "a\n": the last two lines are deleted, not the first two). The work is
// bounded by [MaxWork]: past it the differing middle is one replacement,
// still a correct diff, just not a minimal one.
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
