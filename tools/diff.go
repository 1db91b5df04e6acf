package tools

import "github.com/nookdev/nook/tools/internal/udiff"

// UnifiedDiff renders a unified diff of a → b, as the edit tool shows its
// changes: GNU diff -u format under "--- from" and "+++ to" headers, with
// context lines of context around each change; "" when a and b are equal.
// It is the project's one line diff, exported for the reports of other
// packages (a conformance scenario's mismatch).
func UnifiedDiff(from, to string, a, b []byte, context int) string {
	return udiff.Unified(from, to, a, b, context)
}
