package tools

import (
	"bytes"

	"github.com/nookdev/nook/internal/linediff"
)

// UnifiedDiff renders a unified diff of a → b, as the edit tool shows its
// changes: GNU diff -u format under "--- from" and "+++ to" headers, with
// context lines of context around each change; "" when a and b are equal.
// It is the project's one line diff, exported for the reports of other
// packages (a conformance scenario's mismatch).
func UnifiedDiff(from, to string, a, b []byte, context int) string {
	return linediff.Unified(from, to, a, b, context)
}

// firstChangedLine returns the 1-based number of the first line of b that
// differs from a, or 0 when a and b are equal. A line's terminating
// newline is part of it, so adding or removing the final newline changes
// the last line. When b is a line-wise prefix of a (lines were only
// removed at the end), the result is b's last line (1 if b is empty).
func firstChangedLine(a, b []byte) int {
	n := min(len(a), len(b))
	p := 0
	for p < n && a[p] == b[p] {
		p++
	}
	if p == len(a) && p == len(b) {
		return 0
	}
	// The first differing line starts after the last newline before p.
	line := 1 + bytes.Count(b[:p], []byte{'\n'})
	if total := countLines(b); line > total {
		line = max(total, 1)
	}
	return line
}

// countLines is the number of lines of b, a last unterminated line
// included.
func countLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
