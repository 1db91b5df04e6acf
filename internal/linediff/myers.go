package linediff

import "hash/maphash"

// MaxWork bounds the line comparisons and diagonal steps one diff spends
// in the Myers search (about N*M = 4e6 for a dense diff). Past it the
// differing middle is reported as one replacement.
const MaxWork = 4_000_000

// Style says where a change that could sit at several places goes.
type Style int

const (
	// Git places changes as git diff does: a run of changed lines may
	// move anywhere in the file, the common prefix and suffix included.
	Git Style = iota
	// GNU places changes as GNU diff does: the common prefix and suffix
	// are set aside first and a run moves only between them ("a\nk\nB\nk"
	// → "a\nk\nB\nk\nk" is "3a4", the last line being common).
	GNU
)

// Edits compares the lines of a and b and reports which lines of a are
// deleted and which lines of b are inserted, placed as git does; the
// remaining lines pair up in order as unchanged.
func Edits(a, b []string) (del, ins []bool) {
	return edits(a, b, Git, MaxWork)
}

// EditsFunc is Edits with the changes placed in the given style and
// comparing key(line) instead of the lines (diff -i, -b, -w compare a
// folded form). A nil key compares the lines.
func EditsFunc(a, b []string, style Style, key func(string) string) (del, ins []bool) {
	if key != nil {
		a, b = mapLines(a, key), mapLines(b, key)
	}
	return edits(a, b, style, MaxWork)
}

func mapLines(l []string, key func(string) string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = key(s)
	}
	return out
}

// edits is EditsFunc with an explicit work budget.
func edits(a, b []string, style Style, budget int) (del, ins []bool) {
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
	if style == GNU {
		shift(a[p:na-s], b[p:nb-s], del[p:na-s], ins[p:nb-s])
	} else {
		shift(a, b, del, ins)
	}
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

// shift moves the runs of changed lines where GNU diff (analyze.c's
// shift_boundaries) and git (xdl_change_compact, without its indent
// heuristic) put them. A run of one file may move up or down over equal
// lines without changing the diff; each run is first moved up as far as
// it goes and then down as far as it goes, merging with the runs it
// meets, and finally back up to the last place where it sits against a
// change of the other file (so "a\nk" → "K\nk\nk" is a change of the
// first line, not a deletion and an insertion further down). Without
// such a place it stays at the bottom. The files are done in turn, a
// then b.
func shift(a, b []string, del, ins []bool) {
	// Padded copies: flags[f][i+1] is line i of file f, with a false
	// sentinel on each side.
	pad := func(ch []bool) []bool {
		p := make([]bool, len(ch)+2)
		copy(p[1:], ch)
		return p
	}
	flags := [2][]bool{pad(del), pad(ins)}
	lines := [2][]string{a, b}
	for f := range 2 {
		eq := lines[f]
		iEnd := len(eq)
		i, j := 0, 0
		// c(i) and o(j) read the flags of line i of this file and line j
		// of the other, -1 and the line count included (the sentinels).
		c := func(i int) bool { return flags[f][i+1] }
		o := func(j int) bool { return flags[1-f][j+1] }
		set := func(i int, v bool) { flags[f][i+1] = v }
		for {
			for i < iEnd && !c(i) {
				for o(j) {
					j++
				}
				j++
				i++
			}
			if i == iEnd {
				break
			}
			start := i
			i++
			for c(i) {
				i++
			}
			for o(j) {
				j++
			}
			var corresponding int
			for {
				runlength := i - start
				for start > 0 && eq[start-1] == eq[i-1] {
					start--
					set(start, true)
					i--
					set(i, false)
					for c(start - 1) {
						start--
					}
					j--
					for o(j) {
						j--
					}
				}
				corresponding = iEnd
				if o(j - 1) {
					corresponding = i
				}
				for i != iEnd && eq[start] == eq[i] {
					set(start, false)
					start++
					set(i, true)
					i++
					for c(i) {
						i++
					}
					j++
					for o(j) {
						j++
						corresponding = i
					}
				}
				if runlength == i-start {
					break
				}
			}
			for corresponding < i {
				start--
				set(start, true)
				i--
				set(i, false)
				j--
				for o(j) {
					j--
				}
			}
		}
	}
	copy(del, flags[0][1:])
	copy(ins, flags[1][1:])
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
	x, y, ok := d.bisect(a0, a1, b0, b1)
	if !ok {
		return false
	}
	return d.diff(a0, x, b0, y) && d.diff(x, a1, y, b1)
}

// bisect finds the middle snake of a[a0:a1] and b[b0:b1] as GNU diff's
// diag and git's xdl_split do, so that where several shortest diffs
// exist it picks theirs: the forward and backward searches advance in
// turn, each over its diagonals from the highest (the most deletions)
// down, a step preferring a deletion over an insertion forward and the
// reverse backward, and the split point is the end of the snake of
// whichever search met the other first. Both ranges are non-empty and
// differ in their first and last lines. ok is false when the work
// budget ran out.
func (d *differ) bisect(a0, a1, b0, b1 int) (x, y int, ok bool) {
	A, B := d.a, d.b
	dmin, dmax := a0-b1, a1-b0 // the diagonals (x - y) of the box
	fmid, bmid := a0-b0, a1-b1
	// fd[k+off] (bd[k+off]) is the furthest (least) x reached on
	// diagonal k by the forward (backward) search; k spans dmin-1..dmax+1.
	off := 1 - dmin
	if n := dmax - dmin + 3; cap(d.v1) < n {
		d.v1, d.v2 = make([]int32, n), make([]int32, n)
	}
	fd, bd := d.v1, d.v2
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	fd[fmid+off], bd[bmid+off] = int32(a0), int32(a1)
	odd := (fmid-bmid)&1 != 0
	const far = int32(1<<31 - 1)
	for {
		if d.work >= d.budget {
			return 0, 0, false
		}
		if fmin > dmin {
			fmin--
			fd[fmin-1+off] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			fd[fmax+1+off] = -1
		} else {
			fmax--
		}
		for k := fmax; k >= fmin; k -= 2 {
			lo, hi := fd[k-1+off], fd[k+1+off]
			x := hi
			if lo >= hi {
				x = lo + 1
			}
			x0 := x
			y := int(x) - k
			for int(x) < a1 && y < b1 && A[x] == B[y] {
				x, y = x+1, y+1
			}
			d.work += 1 + int(x-x0)
			fd[k+off] = x
			if odd && bmin <= k && k <= bmax && bd[k+off] <= x {
				return int(x), y, true
			}
		}
		if bmin > dmin {
			bmin--
			bd[bmin-1+off] = far
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			bd[bmax+1+off] = far
		} else {
			bmax--
		}
		for k := bmax; k >= bmin; k -= 2 {
			lo, hi := bd[k-1+off], bd[k+1+off]
			x := hi - 1
			if lo < hi {
				x = lo
			}
			x0 := x
			y := int(x) - k
			for int(x) > a0 && y > b0 && A[x-1] == B[y-1] {
				x, y = x-1, y-1
			}
			d.work += 1 + int(x0-x)
			bd[k+off] = x
			if !odd && fmin <= k && k <= fmax && x <= fd[k+off] {
				return int(x), y, true
			}
		}
	}
}
