// Package udiff renders unified diffs of text, line by line, with a
// configurable number of context lines.
//
// The line diff is Myers' O((N+M)D) algorithm in its linear-space,
// divide-and-conquer form, run after the common prefix and suffix are
// trimmed. Its work is bounded: past a fixed budget of line comparisons
// the differing middle is emitted as one replacement hunk, which is still
// a correct patch, just not a minimal one. Output follows GNU diff -u:
// "@@ -l,s +l,s @@" hunk headers (",1" omitted, a zero-length side
// numbered by the line before it), deletions before insertions within a
// change, hunks merged when at most 2*context unchanged lines separate
// them, and "\ No newline at end of file" after a last line without one.
package udiff
