package git

import (
	"bytes"
	"fmt"
	"strings"
)

// maxDiffCost bounds the Myers search (the edit distance explored); past
// it the differing middle is one replacement, still a correct diff. The
// search keeps one row per distance explored, so its memory is about
// maxDiffCost² ints (≈ 18 MB).
const maxDiffCost = 1500

// maxDiffLines bounds the lines a file diff compares; a bigger file is
// one replacement hunk.
const maxDiffLines = 200000

// splitLines splits text into lines, each keeping its "\n".
func splitLines(b []byte) []string {
	var out []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, string(b))
			break
		}
		out = append(out, string(b[:i+1]))
		b = b[i+1:]
	}
	return out
}

// lineEdits returns, for a and b, which lines are deleted from a and
// inserted in b: Myers' algorithm on the middle left after the common
// prefix and suffix, with changes slid down as git does.
func lineEdits(a, b []string) (del, ins []bool) {
	del, ins = make([]bool, len(a)), make([]bool, len(b))
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	myers(a[p:len(a)-s], b[p:len(b)-s], del[p:len(a)-s], ins[p:len(b)-s])
	slide(a, del)
	slide(b, ins)
	return del, ins
}

// myers marks the lines of a shortest edit script from a to b.
func myers(a, b []string, del, ins []bool) {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		for i := range del {
			del[i] = true
		}
		for i := range ins {
			ins[i] = true
		}
		return
	}
	max := n + m
	if max > maxDiffCost {
		max = maxDiffCost
	}
	if n > maxDiffLines || m > maxDiffLines {
		max = 0
	}
	off := max + 1
	v := make([]int, 2*max+3)
	// trace[d] holds v[off-d .. off+d] as it was before step d.
	var trace [][]int
	found := -1
	for d := 0; d <= max && found < 0; d++ {
		snap := make([]int, 2*d+3)
		copy(snap, v[off-d-1:off+d+2])
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
				break
			}
		}
	}
	if found < 0 {
		for i := range del {
			del[i] = true
		}
		for i := range ins {
			ins[i] = true
		}
		return
	}
	x, y := n, m
	for d := found; d > 0; d-- {
		row := trace[d]
		at := func(k int) int { return row[k+d+1] } // v[off+k] before step d
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x, y = x-1, y-1
		}
		if x == px {
			ins[py] = true
		} else {
			del[px] = true
		}
		x, y = px, py
	}
}

// slide moves each run of changed lines as far down as it can go while
// the diff stays the same (a run can move down when its first line equals
// the line after it), which is where git puts them.
func slide(lines []string, ch []bool) {
	for i := 0; i < len(ch); {
		if !ch[i] {
			i++
			continue
		}
		j := i
		for j < len(ch) && ch[j] {
			j++
		}
		for j < len(ch) && lines[i] == lines[j] && !ch[j] {
			ch[i], ch[j] = false, true
			i, j = i+1, j+1
			for j < len(ch) && ch[j] {
				j++
			}
		}
		i = j
	}
}

// hunk is a run of changes with its context.
type block struct{ a0, a1, b0, b1 int }

func blocks(del, ins []bool) []block {
	var out []block
	i, j := 0, 0
	for i < len(del) || j < len(ins) {
		if (i < len(del) && del[i]) || (j < len(ins) && ins[j]) {
			c := block{a0: i, b0: j}
			for i < len(del) && del[i] {
				i++
			}
			for j < len(ins) && ins[j] {
				j++
			}
			c.a1, c.b1 = i, j
			out = append(out, c)
			continue
		}
		i, j = i+1, j+1
	}
	return out
}

// countChanges returns the lines added and removed from a to b.
func countChanges(a, b []byte) (added, removed int) {
	al, bl := splitLines(a), splitLines(b)
	del, ins := lineEdits(al, bl)
	for _, d := range del {
		if d {
			removed++
		}
	}
	for _, d := range ins {
		if d {
			added++
		}
	}
	return added, removed
}

// funcLine is git's default hunk-header context: the last line before
// the hunk that starts with a letter, "_" or "$".
func funcLine(lines []string, before int) string {
	for i := before - 1; i >= 0; i-- {
		l := lines[i]
		if l != "" && (isAlpha(l[0]) || l[0] == '_' || l[0] == '$') {
			l = strings.TrimRight(l, "\n")
			l = strings.TrimRight(l, " \t\r")
			if len(l) > 80 {
				l = l[:80]
			}
			return l
		}
	}
	return ""
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// unified renders the hunks of a → b with ctx lines of context, in git's
// format (the "---"/"+++" lines are the caller's).
func unified(a, b []byte, ctx int) string {
	al, bl := splitLines(a), splitLines(b)
	del, ins := lineEdits(al, bl)
	bs := blocks(del, ins)
	var out strings.Builder
	for g := 0; g < len(bs); {
		h := g
		for h+1 < len(bs) && bs[h+1].a0-bs[h].a1 <= 2*ctx {
			h++
		}
		first, last := bs[g], bs[h]
		before := min(ctx, first.a0)
		after := min(ctx, len(al)-last.a1)
		aStart, bStart := first.a0-before, first.b0-before
		aLen := last.a1 + after - aStart
		bLen := last.b1 + after - bStart
		fmt.Fprintf(&out, "@@ -%s +%s @@", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		if fl := funcLine(al, aStart); fl != "" {
			out.WriteString(" " + fl)
		}
		out.WriteString("\n")
		i, j := aStart, bStart
		for _, c := range bs[g : h+1] {
			for ; i < c.a0; i, j = i+1, j+1 {
				diffLine(&out, ' ', al[i])
			}
			for ; i < c.a1; i++ {
				diffLine(&out, '-', al[i])
			}
			for ; j < c.b1; j++ {
				diffLine(&out, '+', bl[j])
			}
		}
		for ; i < last.a1+after; i++ {
			diffLine(&out, ' ', al[i])
		}
		g = h + 1
	}
	return out.String()
}

func hunkRange(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}

func diffLine(out *strings.Builder, p byte, l string) {
	out.WriteByte(p)
	out.WriteString(l)
	if !strings.HasSuffix(l, "\n") {
		out.WriteString("\n\\ No newline at end of file\n")
	}
}
