package linediff

import "hash/maphash"

// MaxWork bounds the line comparisons and diagonal steps one diff spends
// in the Myers search (about N*M = 4e6 for a dense diff). Past it the
// differing middle is reported as one replacement.
const MaxWork = 4_000_000

// Edits compares the lines of a and b and reports which lines of a are
// deleted and which lines of b are inserted; the remaining lines pair up
// in order as unchanged.
func Edits(a, b []string) (del, ins []bool) {
	return edits(a, b, MaxWork)
}

// EditsFunc is Edits comparing key(line) instead of the lines (diff -i,
// -b, -w compare a folded form). A nil key compares the lines.
func EditsFunc(a, b []string, key func(string) string) (del, ins []bool) {
	if key != nil {
		a, b = mapLines(a, key), mapLines(b, key)
	}
	return edits(a, b, MaxWork)
}

func mapLines(l []string, key func(string) string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = key(s)
	}
	return out
}

// edits is Edits with an explicit work budget.
func edits(a, b []string, budget int) (del, ins []bool) {
	na, nb := len(a), len(b)
	del, ins = make([]bool, na), make([]bool, nb)
	// The common prefix and suffix never enter the search (nor the
	// hashing).
	p := 0
	for p < na && p < nb && a[p] == b[p] {
		p++
	}
	s := 0
	for s < na-p && s < nb-p && a[na-1-s] == b[nb-1-s] {
		s++
	}
	// The search compares 64-bit line hashes; the alignment it returns is
	// then verified line by line, and a hash collision (never seen in
	// practice) degrades to the one-replacement fallback, never to a
	// wrong diff.
	seed := maphash.MakeSeed()
	ha := make([]uint64, na-p-s)
	for i := range ha {
		ha[i] = maphash.String(seed, a[p+i])
	}
	hb := make([]uint64, nb-p-s)
	for j := range hb {
		hb[j] = maphash.String(seed, b[p+j])
	}
	d := &differ{a: ha, b: hb, del: del[p : na-s], ins: ins[p : nb-s], budget: budget}
	if !d.diff(0, len(ha), 0, len(hb)) || !verified(a[p:na-s], b[p:nb-s], d.del, d.ins) {
		for i := range d.del {
			d.del[i] = true
		}
		for j := range d.ins {
			d.ins[j] = true
		}
	}
	slide(a, del)
	slide(b, ins)
	return del, ins
}

// verified reports whether the lines the diff keeps unchanged really are
// equal.
func verified(a, b []string, del, ins []bool) bool {
	i, j := 0, 0
	for {
		for i < len(del) && del[i] {
			i++
		}
		for j < len(ins) && ins[j] {
			j++
		}
		if i == len(del) || j == len(ins) {
			return i == len(del) && j == len(ins)
		}
		if a[i] != b[j] {
			return false
		}
		i, j = i+1, j+1
	}
}

// slide moves each run of changed lines as far down as it can go while
// the diff stays the same (a run moves down one line when its first line
// equals the unchanged line after it), which is where GNU diff and git
// put an ambiguous change.
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

// differ runs Myers' linear-space diff over hashed lines.
type differ struct {
	a, b     []uint64 // line hashes
	v1, v2   []int32  // search vectors, reused across bisect calls
	del, ins []bool
	work     int
	budget   int
}

// diff marks the differences between a[a0:a1] and b[b0:b1]. It returns
// false when the work budget ran out.
func (d *differ) diff(a0, a1, b0, b1 int) bool {
	for a0 < a1 && b0 < b1 && d.a[a0] == d.b[b0] {
		a0, b0 = a0+1, b0+1
	}
	for a0 < a1 && b0 < b1 && d.a[a1-1] == d.b[b1-1] {
		a1, b1 = a1-1, b1-1
	}
	switch {
	case a0 == a1:
		for j := b0; j < b1; j++ {
			d.ins[j] = true
		}
		return true
	case b0 == b1:
		for i := a0; i < a1; i++ {
			d.del[i] = true
		}
		return true
	}
	x, y, found, ok := d.bisect(a0, a1, b0, b1)
	if !ok {
		return false
	}
	if !found {
		for i := a0; i < a1; i++ {
			d.del[i] = true
		}
		for j := b0; j < b1; j++ {
			d.ins[j] = true
		}
		return true
	}
	return d.diff(a0, x, b0, y) && d.diff(x, a1, y, b1)
}

// bisect finds the middle snake of a[a0:a1] and b[b0:b1] by running the
// forward and reverse searches until they meet, and returns the split
// point. found is false if they never meet (only possible with no common
// line); ok is false when the work budget ran out.
func (d *differ) bisect(a0, a1, b0, b1 int) (x, y int, found, ok bool) {
	A, B := d.a[a0:a1], d.b[b0:b1]
	n, m := int32(len(A)), int32(len(B))
	maxD := int(n+m+1) / 2
	vOff := maxD
	vLen := 2*maxD + 2
	if cap(d.v1) < vLen {
		d.v1, d.v2 = make([]int32, vLen), make([]int32, vLen)
	}
	v1, v2 := d.v1[:vLen], d.v2[:vLen]
	// Round D reads and writes only v[vOff-D-1 : vOff+D+2], so the
	// vectors are reset lazily as the search widens: each call costs
	// O(D), not O(n+m).
	reset := func(lo, hi int) {
		for i := max(lo, 0); i < min(hi, vLen); i++ {
			v1[i], v2[i] = -1, -1
		}
	}
	reset(vOff-1, vOff+2)
	v1[vOff+1], v2[vOff+1] = 0, 0
	delta := int(n - m)
	front := delta%2 != 0 // the forward path detects the overlap
	k1start, k1end, k2start, k2end := 0, 0, 0, 0
	for D := 0; D < maxD; D++ {
		if d.work > d.budget {
			return 0, 0, false, false
		}
		if D > 0 {
			reset(vOff-D-1, vOff-D)
			reset(vOff+D+1, vOff+D+2)
		}
		for k1 := -D + k1start; k1 <= D-k1end; k1 += 2 {
			k1o := vOff + k1
			var x1 int32
			if k1 == -D || (k1 != D && v1[k1o-1] < v1[k1o+1]) {
				x1 = v1[k1o+1]
			} else {
				x1 = v1[k1o-1] + 1
			}
			y1 := x1 - int32(k1)
			for x1 < n && y1 < m && A[x1] == B[y1] {
				x1, y1 = x1+1, y1+1
			}
			d.work += 1 + int(x1-v1[k1o])
			v1[k1o] = x1
			switch {
			case x1 > n:
				k1end += 2 // ran off the right edge
			case y1 > m:
				k1start += 2 // ran off the bottom edge
			case front:
				// Only diagonals within the radius reset so far hold
				// values from this call.
				if k2o := vOff + delta - k1; k2o >= vOff-D-1 && k2o <= vOff+D+1 && k2o >= 0 && k2o < vLen && v2[k2o] != -1 {
					if x1 >= n-v2[k2o] {
						return a0 + int(x1), b0 + int(y1), true, true
					}
				}
			}
		}
		for k2 := -D + k2start; k2 <= D-k2end; k2 += 2 {
			k2o := vOff + k2
			var x2 int32
			if k2 == -D || (k2 != D && v2[k2o-1] < v2[k2o+1]) {
				x2 = v2[k2o+1]
			} else {
				x2 = v2[k2o-1] + 1
			}
			y2 := x2 - int32(k2)
			for x2 < n && y2 < m && A[n-x2-1] == B[m-y2-1] {
				x2, y2 = x2+1, y2+1
			}
			d.work += 1 + int(x2-v2[k2o])
			v2[k2o] = x2
			switch {
			case x2 > n:
				k2end += 2
			case y2 > m:
				k2start += 2
			case !front:
				if k1o := vOff + delta - k2; k1o >= vOff-D-1 && k1o <= vOff+D+1 && k1o >= 0 && k1o < vLen && v1[k1o] != -1 {
					x1 := int(v1[k1o])
					y1 := vOff + x1 - k1o
					if x1 >= int(n-x2) {
						return a0 + x1, b0 + y1, true, true
					}
				}
			}
		}
	}
	return 0, 0, false, true
}
