package udiff

import (
	"bytes"
	"strconv"
	"strings"
)

// noNewline follows a line that has no terminating newline.
const noNewline = "\\ No newline at end of file\n"

// Unified renders a unified diff of a → b with context lines of context
// around each change (the edit tool uses 4), under "--- fromLabel" and
// "+++ toLabel" headers (labels are used verbatim, e.g. "a/<path>" and
// "b/<path>"). It returns "" when a and b are equal. A negative context
// counts as 0. The result applies with patch(1) and git apply.
func Unified(fromLabel, toLabel string, a, b []byte, context int) string {
	if bytes.Equal(a, b) {
		return ""
	}
	context = max(context, 0)
	al, bl := splitText(a), splitText(b)
	del, ins := lineDiff(al, bl)
	changes := changeBlocks(del, ins)

	var out strings.Builder
	out.WriteString("--- " + fromLabel + "\n+++ " + toLabel + "\n")
	for g := 0; g < len(changes); {
		h := g // last change of this hunk
		for h+1 < len(changes) && changes[h+1].a0-changes[h].a1 <= 2*context {
			h++
		}
		first, last := changes[g], changes[h]
		before := min(context, first.a0)
		after := min(context, al.n()-last.a1)
		aStart, bStart := first.a0-before, first.b0-before
		aLen := last.a1 + after - aStart
		bLen := last.b1 + after - bStart
		out.WriteString("@@ -" + hunkRange(aStart, aLen) + " +" + hunkRange(bStart, bLen) + " @@\n")
		i, j := aStart, bStart
		for _, c := range changes[g : h+1] {
			for ; i < c.a0; i, j = i+1, j+1 {
				writeLine(&out, ' ', al.line(i))
			}
			for ; i < c.a1; i++ {
				writeLine(&out, '-', al.line(i))
			}
			for ; j < c.b1; j++ {
				writeLine(&out, '+', bl.line(j))
			}
		}
		for ; i < last.a1+after; i++ {
			writeLine(&out, ' ', al.line(i))
		}
		g = h + 1
	}
	return out.String()
}

// change is one maximal run of changed lines: a[a0:a1] replaced by
// b[b0:b1], with unchanged lines on both sides.
type change struct{ a0, a1, b0, b1 int }

// changeBlocks groups the per-line flags into changes.
func changeBlocks(del, ins []bool) []change {
	var out []change
	i, j := 0, 0
	for i < len(del) || j < len(ins) {
		if (i < len(del) && del[i]) || (j < len(ins) && ins[j]) {
			c := change{a0: i, b0: j}
			for (i < len(del) && del[i]) || (j < len(ins) && ins[j]) {
				for i < len(del) && del[i] {
					i++
				}
				for j < len(ins) && ins[j] {
					j++
				}
			}
			c.a1, c.b1 = i, j
			out = append(out, c)
			continue
		}
		i, j = i+1, j+1
	}
	return out
}

// hunkRange formats one side of a hunk header the way GNU diff does: the
// 1-based first line and the count, the count omitted when it is 1, and
// for an empty range the number of the line before it.
func hunkRange(start, count int) string {
	switch count {
	case 0:
		return strconv.Itoa(start) + ",0"
	case 1:
		return strconv.Itoa(start + 1)
	default:
		return strconv.Itoa(start+1) + "," + strconv.Itoa(count)
	}
}

func writeLine(out *strings.Builder, prefix byte, line []byte) {
	out.WriteByte(prefix)
	out.Write(line)
	if len(line) == 0 || line[len(line)-1] != '\n' {
		out.WriteByte('\n')
		out.WriteString(noNewline)
	}
}
