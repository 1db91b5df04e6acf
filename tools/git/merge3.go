package git

import (
	"bytes"
	"strings"

	"github.com/nookdev/nook/internal/linediff"
)

// merge3 merges the lines of ours and theirs against base, as git's
// diff3 does: a change on one side is taken, the same change on both
// sides once, different overlapping (or touching) changes become a
// conflict marked with <<<<<<< ours ======= theirs >>>>>>>, with the lines
// both sides agree on at its ends moved out of it. It reports whether
// there was a conflict.
func merge3(base, ours, theirs []byte, oursLabel, theirsLabel string) ([]byte, bool) {
	b, o, t := linediff.Lines(base), linediff.Lines(ours), linediff.Lines(theirs)
	bo := linediff.Diff(b, o)
	bt := linediff.Diff(b, t)
	var out bytes.Buffer
	conflict := false
	// Map a base position to the other side, outside changes.
	mapPos := func(bs []linediff.Change, pos int) int {
		off := 0
		for _, c := range bs {
			if c.A1 <= pos {
				off = c.B1 - c.A1
			}
		}
		return pos + off
	}
	pos := 0 // in base
	i, j := 0, 0
	for i < len(bo) || j < len(bt) {
		// The next region: the earliest change and everything overlapping it.
		var start int
		switch {
		case i < len(bo) && (j >= len(bt) || bo[i].A0 <= bt[j].A0):
			start = bo[i].A0
		default:
			start = bt[j].A0
		}
		end := start
		i2, j2 := i, j
		for {
			grew := false
			for i2 < len(bo) && bo[i2].A0 <= end {
				if bo[i2].A1 > end {
					end = bo[i2].A1
				}
				i2++
				grew = true
			}
			for j2 < len(bt) && bt[j2].A0 <= end {
				if bt[j2].A1 > end {
					end = bt[j2].A1
				}
				j2++
				grew = true
			}
			if !grew {
				break
			}
		}
		// Unchanged lines before the region.
		for ; pos < start; pos++ {
			out.WriteString(b[pos])
		}
		oursPart := sideLines(o, bo, i, i2, start, end, mapPos)
		theirsPart := sideLines(t, bt, j, j2, start, end, mapPos)
		switch {
		case i == i2:
			out.WriteString(strings.Join(theirsPart, ""))
		case j == j2:
			out.WriteString(strings.Join(oursPart, ""))
		case strings.Join(oursPart, "") == strings.Join(theirsPart, ""):
			out.WriteString(strings.Join(oursPart, ""))
		default:
			conflict = true
			// Lines both sides agree on at the ends stay outside.
			p := 0
			for p < len(oursPart) && p < len(theirsPart) && oursPart[p] == theirsPart[p] {
				p++
			}
			s := 0
			for s < len(oursPart)-p && s < len(theirsPart)-p && oursPart[len(oursPart)-1-s] == theirsPart[len(theirsPart)-1-s] {
				s++
			}
			out.WriteString(strings.Join(oursPart[:p], ""))
			out.WriteString("<<<<<<< " + oursLabel + "\n")
			writeSide(&out, oursPart[p:len(oursPart)-s])
			out.WriteString("=======\n")
			writeSide(&out, theirsPart[p:len(theirsPart)-s])
			out.WriteString(">>>>>>> " + theirsLabel + "\n")
			out.WriteString(strings.Join(oursPart[len(oursPart)-s:], ""))
		}
		pos = end
		i, j = i2, j2
	}
	for ; pos < len(b); pos++ {
		out.WriteString(b[pos])
	}
	return out.Bytes(), conflict
}

func writeSide(out *bytes.Buffer, lines []string) {
	for _, l := range lines {
		out.WriteString(l)
		if !strings.HasSuffix(l, "\n") {
			out.WriteString("\n")
		}
	}
}

// sideLines returns one side's lines for the base region [start, end),
// given its changes bs[from:to] inside it.
func sideLines(side []string, bs []linediff.Change, from, to, start, end int, mapPos func([]linediff.Change, int) int) []string {
	if from == to {
		s := mapPos(bs, start)
		return side[s : s+(end-start)]
	}
	first, last := bs[from], bs[to-1]
	s := first.B0 - (first.A0 - start)
	e := last.B1 + (end - last.A1)
	return side[s:e]
}
