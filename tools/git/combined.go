package git

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/nookdev/nook/internal/linediff"
)

// This file renders git's dense combined diff (diff --cc): one column
// of markers per parent, and only the hunks where the result differs
// from every parent ("the result matches one of the parents" hunks are
// dropped), as git show prints a merge and git diff a conflicted path.

// lostLine is a line of some parents that the result does not have.
type lostLine struct {
	text    string
	parents uint // bit n: parent n had it
}

// cline is a line of the result (the last one a sentinel that holds the
// lines lost after the end).
type cline struct {
	text string
	flag uint // bits 0..n-1: not in parent n; bit n: shown; bit n+1: context without its lost lines
	lost []lostLine
	pLno []int // per parent, the 1-based line a hunk starting here starts at
}

// coalesceLost merges the lines parent n lost before a result line into
// the ones other parents lost there, matching equal lines by their
// longest common subsequence as git does.
func coalesceLost(base, add []lostLine, n int) []lostLine {
	if len(add) == 0 {
		return base
	}
	if len(base) == 0 {
		return add
	}
	const (
		dirBase = iota
		dirNew
		dirMatch
	)
	lb, ln := len(base), len(add)
	lcs := make([][]int, lb+1)
	dir := make([][]int, lb+1)
	for i := range lcs {
		lcs[i] = make([]int, ln+1)
		dir[i] = make([]int, ln+1)
		dir[i][0] = dirBase
	}
	for j := 1; j <= ln; j++ {
		dir[0][j] = dirNew
	}
	for i := 1; i <= lb; i++ {
		for j := 1; j <= ln; j++ {
			switch {
			case base[i-1].text == add[j-1].text:
				lcs[i][j] = lcs[i-1][j-1] + 1
				dir[i][j] = dirMatch
			case lcs[i][j-1] >= lcs[i-1][j]:
				lcs[i][j] = lcs[i][j-1]
				dir[i][j] = dirNew
			default:
				lcs[i][j] = lcs[i-1][j]
				dir[i][j] = dirBase
			}
		}
	}
	var rev []lostLine
	i, j := lb, ln
	for i != 0 || j != 0 {
		switch dir[i][j] {
		case dirMatch:
			l := base[i-1]
			l.parents |= 1 << n
			rev = append(rev, l)
			i, j = i-1, j-1
		case dirNew:
			rev = append(rev, add[j-1])
			j--
		default:
			rev = append(rev, base[i-1])
			i--
		}
	}
	out := make([]lostLine, len(rev))
	for k := range rev {
		out[k] = rev[len(rev)-1-k]
	}
	return out
}

// combinedHunks returns the hunks of result against parents in git's
// dense combined format, "" when no hunk is left.
func combinedHunks(parents [][]byte, result []byte, combinedContext int) string {
	np := len(parents)
	rl := linediff.Lines(result)
	cnt := len(rl)
	sl := make([]cline, cnt+2)
	for i := range sl {
		if i < cnt {
			sl[i].text = rl[i]
		}
		sl[i].pLno = make([]int, np)
	}
	for n, p := range parents {
		pl := linediff.Lines(p)
		plost := make([][]lostLine, cnt+1)
		for _, c := range linediff.Diff(pl, rl) {
			for k := c.A0; k < c.A1; k++ {
				plost[c.B0] = append(plost[c.B0], lostLine{text: pl[k], parents: 1 << n})
			}
			for k := c.B0; k < c.B1; k++ {
				sl[k].flag |= 1 << n
			}
		}
		lno, pno := 0, 1
		for ; lno <= cnt; lno++ {
			sl[lno].pLno[n] = pno
			sl[lno].lost = coalesceLost(sl[lno].lost, plost[lno], n)
			for _, l := range sl[lno].lost {
				if l.parents&(1<<n) != 0 {
					pno++
				}
			}
			if lno < cnt && sl[lno].flag&(1<<n) == 0 {
				pno++
			}
		}
		sl[lno].pLno[n] = pno
	}
	allMask := uint(1)<<np - 1
	mark := uint(1) << np
	noPreDelete := uint(2) << np
	for i := 0; i <= cnt; i++ {
		if sl[i].flag&allMask != 0 || len(sl[i].lost) > 0 {
			sl[i].flag |= mark
		} else {
			sl[i].flag &^= mark
		}
	}
	adjustTail := func(begin, i int) int {
		if begin+1 <= i && sl[i-1].flag&allMask == 0 {
			i--
		}
		return i
	}
	// Drop the hunks where the result takes one side.
	for i := 0; i < cnt; {
		for i < cnt && sl[i].flag&mark == 0 {
			i++
		}
		if cnt <= i {
			break
		}
		begin := i
		j := i + 1
		for ; j < cnt; j++ {
			if sl[j].flag&mark == 0 {
				la := adjustTail(begin, j)
				la = min(la+combinedContext, cnt+1)
				contin := false
				for la > 0 {
					la--
					if la < j {
						break
					}
					if sl[la].flag&mark != 0 {
						contin = true
						break
					}
				}
				if !contin {
					break
				}
				j = la
			}
		}
		end := j
		same, interesting := uint(0), false
		for k := i; k < end && !interesting; k++ {
			if d := sl[k].flag & allMask; d != 0 {
				if same == 0 {
					same = d
				} else if same != d {
					interesting = true
					break
				}
			}
			for _, l := range sl[k].lost {
				if same == 0 {
					same = l.parents
				} else if same != l.parents {
					interesting = true
					break
				}
			}
		}
		if !interesting && same != allMask {
			for k := begin; k < end; k++ {
				sl[k].flag &^= mark
			}
		}
		i = end
	}
	// Context.
	findNext := func(i int, unmarked bool) int {
		for ; i <= cnt; i++ {
			if (sl[i].flag&mark == 0) == unmarked {
				return i
			}
		}
		return cnt + 1
	}
	i := findNext(0, false)
	if cnt < i {
		return ""
	}
	for i <= cnt {
		j := max(i-combinedContext, 0)
		for ; j < i; j++ {
			if sl[j].flag&mark == 0 {
				sl[j].flag |= noPreDelete
			}
			sl[j].flag |= mark
		}
		for {
			j = findNext(i, true)
			if cnt < j {
				i = cnt + 1
				break
			}
			k := findNext(j, false)
			j = adjustTail(i, j)
			if k < j+combinedContext {
				for ; j < k; j++ {
					sl[j].flag |= mark
				}
				i = k
				continue
			}
			i = k
			k = min(j+combinedContext, cnt+1)
			for ; j < k; j++ {
				sl[j].flag |= mark
			}
			break
		}
	}
	// Output.
	var b strings.Builder
	at := strings.Repeat("@", np+1)
	lno := 0
	for {
		comment := ""
		for lno <= cnt && sl[lno].flag&mark == 0 {
			if t := sl[lno].text; t != "" && (isAlpha(t[0]) || t[0] == '_' || t[0] == '$') {
				comment = t
			}
			lno++
		}
		if cnt < lno {
			break
		}
		end := lno + 1
		for ; end <= cnt; end++ {
			if sl[end].flag&mark == 0 {
				break
			}
		}
		rlines := end - lno
		if cnt < end {
			rlines--
		}
		b.WriteString(at)
		for n := 0; n < np; n++ {
			l0, l1 := sl[lno].pLno[n], sl[end].pLno[n]
			fmt.Fprintf(&b, " -%d,%d", l0, l1-l0)
		}
		fmt.Fprintf(&b, " +%d,%d %s", lno+1, rlines, at)
		if comment != "" {
			// git shows up to 40 bytes of the line, cut before its
			// last non-blank byte.
			last := 0
			for k := 0; k < 40 && k < len(comment); k++ {
				ch := comment[k]
				if ch == '\n' {
					break
				}
				if ch != ' ' && ch != '\t' && ch != '\r' && ch != '\f' && ch != '\v' {
					last = k
				}
			}
			if last > 0 {
				b.WriteString(" " + comment[:last])
			}
		}
		b.WriteString("\n")
		for lno < end {
			s := &sl[lno]
			lno++
			if s.flag&noPreDelete == 0 {
				for _, l := range s.lost {
					var m strings.Builder
					for n := 0; n < np; n++ {
						if l.parents&(1<<n) != 0 {
							m.WriteByte('-')
						} else {
							m.WriteByte(' ')
						}
					}
					linediff.WriteLine(&b, m.String(), l.text)
				}
			}
			if cnt < lno {
				break
			}
			var m strings.Builder
			for n := 0; n < np; n++ {
				if s.flag&(1<<n) != 0 {
					m.WriteByte('+')
				} else {
					m.WriteByte(' ')
				}
			}
			linediff.WriteLine(&b, m.String(), s.text)
		}
	}
	return b.String()
}

// combinedFile is one path of a combined diff: its header and hunks, ""
// when dense combining leaves nothing to show.
// newMode, when not "", is the mode of a file no parent has.
func combinedFile(name string, parentHashes []string, parents [][]byte, resultHash string, result []byte, ctx int, newMode string) string {
	hunks := combinedHunks(parents, result, ctx)
	if hunks == "" {
		return ""
	}
	from := "a/" + name
	head := ""
	if newMode != "" {
		from, head = "/dev/null", "new file mode "+newMode+"\n"
	}
	return fmt.Sprintf("diff --cc %s\nindex %s..%s\n%s--- %s\n+++ b/%s\n%s", name, strings.Join(parentHashes, ","), resultHash, head, from, name, hunks)
}

// mergeCombined is the dense combined diff of merge commit c against its
// parents: the paths whose result differs from every parent.
func (x *cli) mergeCombined(c *object.Commit, ps *pathspec, ctx int) string {
	to, err := x.r.treeFlat(c.TreeHash)
	if err != nil {
		return ""
	}
	var parents []flat
	for _, p := range c.ParentHashes {
		f, err := x.r.commitFlat(p)
		if err != nil {
			return ""
		}
		parents = append(parents, f)
	}
	var b strings.Builder
	for _, n := range to.sorted() {
		if !ps.match(n) {
			continue
		}
		e := to[n]
		differs := true
		for _, p := range parents {
			if pe, ok := p[n]; ok && pe == e {
				differs = false
				break
			}
		}
		if !differs {
			continue
		}
		var hashes []string
		var blobs [][]byte
		newMode := modeText(e.mode)
		for _, p := range parents {
			pe, ok := p[n]
			if ok {
				newMode = ""
			}
			if !ok {
				hashes, blobs = append(hashes, abbrevZero), append(blobs, nil)
				continue
			}
			data, _ := x.r.readBlob(pe.hash)
			hashes, blobs = append(hashes, shortHash(pe.hash)), append(blobs, data)
		}
		data, _ := x.r.readBlob(e.hash)
		b.WriteString(combinedFile(n, hashes, blobs, shortHash(e.hash), data, ctx, newMode))
	}
	return b.String()
}

// conflictCombined is git diff's combined diff of a conflicted path: our
// and their stages against the worktree file (false when a stage or the
// file is missing).
func (x *cli) conflictCombined(ix *idx, n string, ctx int) (string, bool) {
	st := ix.stages(n)
	w, ok := x.scanned[n]
	if st[2] == nil || st[3] == nil || !ok {
		return "", false
	}
	var hashes []string
	var blobs [][]byte
	for _, e := range []*ientry{st[2], st[3]} {
		data, err := x.r.readBlob(e.Hash)
		if err != nil {
			return "", false
		}
		hashes, blobs = append(hashes, shortHash(e.Hash)), append(blobs, data)
	}
	data, err := x.readWork(n, w)
	if err != nil {
		return "", false
	}
	return combinedFile(x.display(n), hashes, blobs, abbrevZero, data, ctx, ""), true
}
