package linediff

import (
	"strconv"
	"strings"
)

// NoNewline is the line that follows a last line without a terminating
// newline in a diff.
const NoNewline = "\\ No newline at end of file\n"

// Change is one maximal run of changed lines: a[A0:A1] replaced by
// b[B0:B1], with unchanged lines (or the ends) on both sides.
type Change struct{ A0, A1, B0, B1 int }

// Diff returns the changes from a to b, in order, placed as git does.
func Diff(a, b []string) []Change { return Changes(Edits(a, b)) }

// Changes groups the per-line flags of Edits into changes: the deleted
// and inserted lines between two unchanged lines are one change.
func Changes(del, ins []bool) []Change {
	var out []Change
	i, j := 0, 0
	for i < len(del) || j < len(ins) {
		if (i < len(del) && del[i]) || (j < len(ins) && ins[j]) {
			c := Change{A0: i, B0: j}
			for (i < len(del) && del[i]) || (j < len(ins) && ins[j]) {
				for i < len(del) && del[i] {
					i++
				}
				for j < len(ins) && ins[j] {
					j++
				}
			}
			c.A1, c.B1 = i, j
			out = append(out, c)
			continue
		}
		i, j = i+1, j+1
	}
	return out
}

// Unified renders a unified diff of a → b with context lines of context
// around each change, under "--- fromLabel" and "+++ toLabel" headers
// (labels used verbatim, e.g. "a/<path>" and "b/<path>"). It returns ""
// when a and b are equal. A negative context counts as 0. The result
// applies with patch(1) and git apply; its changes are placed as GNU
// diff -u places them.
func Unified(fromLabel, toLabel string, a, b []byte, context int) string {
	if string(a) == string(b) {
		return ""
	}
	al, bl := Lines(a), Lines(b)
	var out strings.Builder
	out.WriteString("--- " + fromLabel + "\n+++ " + toLabel + "\n")
	WriteHunks(&out, al, bl, Changes(EditsFunc(al, bl, GNU, nil)), context, nil)
	return out.String()
}

// WriteHunks writes the unified hunks of changes (from Diff of a and b)
// with context lines of context (a negative context counts as 0). When
// section is not nil, a hunk's "@@ ... @@" header is followed by " " and
// section(first), first being the index in a of the hunk's first line,
// unless it returns "" (git's function context).
func WriteHunks(out *strings.Builder, a, b []string, changes []Change, context int, section func(first int) string) {
	context = max(context, 0)
	for g := 0; g < len(changes); {
		h := g // last change of this hunk
		for h+1 < len(changes) && changes[h+1].A0-changes[h].A1 <= 2*context {
			h++
		}
		first, last := changes[g], changes[h]
		before := min(context, first.A0)
		after := min(context, len(a)-last.A1)
		aStart, bStart := first.A0-before, first.B0-before
		aLen := last.A1 + after - aStart
		bLen := last.B1 + after - bStart
		out.WriteString("@@ -" + HunkRange(aStart, aLen) + " +" + HunkRange(bStart, bLen) + " @@")
		if section != nil {
			if s := section(aStart); s != "" {
				out.WriteString(" " + s)
			}
		}
		out.WriteByte('\n')
		i, j := aStart, bStart
		for _, c := range changes[g : h+1] {
			for ; i < c.A0; i, j = i+1, j+1 {
				WriteLine(out, " ", a[i])
			}
			for ; i < c.A1; i++ {
				WriteLine(out, "-", a[i])
			}
			for ; j < c.B1; j++ {
				WriteLine(out, "+", b[j])
			}
		}
		for ; i < last.A1+after; i++ {
			WriteLine(out, " ", a[i])
		}
		g = h + 1
	}
}

// HunkRange formats one side of a unified hunk header as GNU diff and
// git do: the 1-based first line and the count, the count omitted when
// it is 1, and for an empty range the number of the line before it.
// start is 0-based.
func HunkRange(start, count int) string {
	switch count {
	case 0:
		return strconv.Itoa(start) + ",0"
	case 1:
		return strconv.Itoa(start + 1)
	default:
		return strconv.Itoa(start+1) + "," + strconv.Itoa(count)
	}
}

// WriteLine writes prefix and line, and after a line without a
// terminating newline a newline and [NoNewline].
func WriteLine(out *strings.Builder, prefix, line string) {
	out.WriteString(prefix)
	out.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		out.WriteByte('\n')
		out.WriteString(NoNewline)
	}
}
