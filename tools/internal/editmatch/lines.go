package editmatch

import (
	"hash/maphash"
	"strings"
)

// lineSearch matches the needle as a run of whole lines of the index,
// ignoring leading indentation but requiring a consistent indentation
// structure (see indentMap). If the needle's first line has no
// indentation it may start after the indentation of the file's line, as
// an exact match would. The needle's first and last lines must have
// content. Lines are compared by hash with KMP, so the scan is linear.
// As with charSearch, hits do not overlap with all set; otherwise a
// second hit overlapping the first one counts too.
func (m *matcher) lineSearch(x *normIndex, needle string, shape needleShape, repl string, all bool) searchResult {
	endsNL := strings.HasSuffix(needle, "\n")
	old := strings.Split(strings.TrimSuffix(needle, "\n"), "\n")
	k := len(old)
	ind := make([]string, k)
	strip := make([]string, k)
	for i, l := range old {
		n := indentLen(l)
		ind[i], strip[i] = l[:n], l[n:]
	}
	if strip[0] == "" || strip[k-1] == "" {
		return searchResult{}
	}
	seed := maphash.MakeSeed()
	pat := make([]uint64, k)
	for i, s := range strip {
		pat[i] = maphash.String(seed, s)
	}
	fail := kmpFailure(pat)

	var r searchResult
	rejected, nextFree, q := 0, 0, 0
	for l := range x.lineStarts {
		ls, le := int(x.lineStarts[l]), x.lineEnd(l)
		h := maphash.Bytes(seed, x.text[ls+indentLen(x.text[ls:le]):le])
		for q > 0 && pat[q] != h {
			q = fail[q-1]
		}
		if pat[q] == h {
			q++
		}
		if q < k {
			continue
		}
		q = fail[k-1]
		j := l - k + 1
		if j < nextFree {
			continue
		}
		o, verdict := m.window(x, j, ind, strip, endsNL, shape, repl)
		if verdict != windowOK {
			if verdict == windowUnmappable {
				r.unmappable++
			}
			if rejected++; rejected >= maxRejected {
				r.capped = true
				break
			}
			continue
		}
		r.occs = append(r.occs, o)
		nextFree = j + k
		if !all && len(r.occs) == 1 {
			nextFree = j + 1
		}
	}
	return r
}

type windowVerdict int

const (
	windowOK windowVerdict = iota
	windowNoMatch
	windowUnmappable
)

// window checks the candidate lines j..j+len(strip)-1 and maps them back.
func (m *matcher) window(x *normIndex, j int, ind, strip []string, endsNL bool, shape needleShape, repl string) (occ, windowVerdict) {
	k := len(strip)
	last := j + k - 1
	if endsNL && last+1 >= len(x.lineStarts) {
		return occ{}, windowNoMatch // the needle's final newline is missing
	}
	partial := ind[0] == ""
	pairs := make([][2]string, 0, k)
	for i := range k {
		ls, le := int(x.lineStarts[j+i]), x.lineEnd(j+i)
		n := indentLen(x.text[ls:le])
		if string(x.text[ls+n:le]) != strip[i] {
			return occ{}, windowNoMatch // hash collision
		}
		if strip[i] == "" || (i == 0 && partial) {
			continue
		}
		pairs = append(pairs, [2]string{ind[i], string(x.text[ls : ls+n])})
	}
	imap, ok := indentMap(pairs)
	if !ok {
		return occ{}, windowNoMatch
	}
	startT := int(x.lineStarts[j])
	if partial {
		startT += indentLen(x.text[startT:x.lineEnd(j)])
	}
	s := x.startAt(startT)
	var t int
	switch {
	case endsNL:
		t = x.startAt(int(x.lineStarts[last+1]))
	case shape.guardEnd:
		t = x.startAt(x.lineEnd(last))
	default:
		t = x.endAt(x.lineEnd(last))
	}
	if s < 0 || t < 0 || s >= t {
		return occ{}, windowUnmappable
	}
	return occ{start: s, end: t, repl: reindent(repl, imap, partial)}, windowOK
}

// kmpFailure returns the KMP failure function of pat.
func kmpFailure(pat []uint64) []int {
	fail := make([]int, len(pat))
	for i, q := 1, 0; i < len(pat); i++ {
		for q > 0 && pat[i] != pat[q] {
			q = fail[q-1]
		}
		if pat[i] == pat[q] {
			q++
		}
		fail[i] = q
	}
	return fail
}
