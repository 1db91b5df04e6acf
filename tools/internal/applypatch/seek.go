package applypatch

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Match levels, tried in order, each over the whole search range before
// the next (Codex's seek_sequence strategy).
const (
	levelExact     = iota // byte-for-byte
	levelTrimRight        // ignoring trailing whitespace
	levelTrim             // ignoring leading and trailing whitespace
	levelNormalise        // and Unicode dashes, quotes and spaces as ASCII
	numLevels
)

func isSpace(r rune) bool { return unicode.IsSpace(r) }

// transform returns s as compared at the given level.
func transform(level int, s string) string {
	switch level {
	case levelExact:
		return s
	case levelTrimRight:
		return strings.TrimRightFunc(s, isSpace)
	case levelTrim:
		return strings.TrimSpace(s)
	default:
		return normalise(s)
	}
}

// normalise trims s and maps typographic punctuation to ASCII: the dashes
// and minus sign to "-", curly single quotes to "'", curly double quotes
// to `"`, and non-breaking and other fixed-width spaces to " ". These are
// the characters Codex's seek_sequence folds (plus U+2000 and U+2001).
func normalise(s string) string {
	s = strings.TrimSpace(s)
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
			return '-'
		case '\u2018', '\u2019', '\u201A', '\u201B':
			return '\''
		case '\u201C', '\u201D', '\u201E', '\u201F':
			return '"'
		case '\u00A0', '\u2000', '\u2001', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006',
			'\u2007', '\u2008', '\u2009', '\u200A', '\u202F', '\u205F', '\u3000':
			return ' '
		}
		return r
	}, s)
}

// matcher finds sequences of lines in a file. It caches the file's lines
// as transformed for each level.
type matcher struct {
	lines  []string
	levels [numLevels][]string
	grams  [][]uint64 // bigram profiles of the normalised lines, for nearest
}

func newMatcher(lines []string) *matcher {
	m := &matcher{lines: lines}
	m.levels[levelExact] = lines
	return m
}

func (m *matcher) level(k int) []string {
	if m.levels[k] == nil {
		t := make([]string, len(m.lines))
		for i, s := range m.lines {
			t[i] = transform(k, s)
		}
		m.levels[k] = t
	}
	return m.levels[k]
}

// seek returns the index of the first occurrence of pattern in the file
// at or after line index start, or -1. Each level is tried over the whole
// range before the next, more lenient one. With eof the pattern must end
// at the end of the file, give or take trailing blank lines.
func (m *matcher) seek(pattern []string, start int, eof bool) int {
	n, k := len(m.lines), len(pattern)
	if k == 0 {
		if eof {
			return n
		}
		return start
	}
	if k > n || start > n-k {
		return -1
	}
	// Candidate start positions, in the order they are tried.
	var cands []int
	if eof {
		t := n
		for t > 0 && isBlank(m.lines[t-1]) {
			t--
		}
		for e := n; e >= t && e-k >= start; e-- {
			cands = append(cands, e-k)
		}
	}
	pat := make([]string, k)
	for lvl := range numLevels {
		fl := m.level(lvl)
		for j, s := range pattern {
			pat[j] = transform(lvl, s)
		}
		if eof {
			for _, i := range cands {
				if slices.Equal(fl[i:i+k], pat) {
					return i
				}
			}
			continue
		}
		for i := start; i <= n-k; i++ {
			if fl[i] == pat[0] && slices.Equal(fl[i+1:i+k], pat[1:]) {
				return i
			}
		}
	}
	return -1
}

// matchesAt reports whether pattern matches the file at line index i at
// any level.
func (m *matcher) matchesAt(pattern []string, i int) bool {
	if i < 0 || i+len(pattern) > len(m.lines) {
		return false
	}
	for lvl := range numLevels {
		fl := m.level(lvl)
		ok := true
		for j, s := range pattern {
			if fl[i+j] != transform(lvl, s) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// Limits of the nearest-lines search.
const (
	nearestMinScore = 0.5      // below this, nothing is "close"
	nearestMaxLines = 20       // lines shown
	nearestBudget   = 2000000  // line comparisons before falling back to exact-only similarity
	nearestMaxWork  = 50000000 // line comparisons before giving up
)

// nearest finds the window of the file most similar to pattern, for
// diagnostics. It returns the window's start index and its similarity in
// [0, 1] (the mean, over pattern's non-blank lines, of each line's
// similarity to the aligned file line), or -1 if nothing scores at least
// nearestMinScore. Ties go to the window closest to from.
func (m *matcher) nearest(pattern []string, from int) (int, float64) {
	n, k := len(m.lines), len(pattern)
	if n == 0 || k == 0 {
		return -1, 0
	}
	norm := m.level(levelNormalise)
	var idx []int
	var pnorm []string
	var pgrams [][]uint64
	for j, s := range pattern {
		if ns := normalise(s); ns != "" {
			idx = append(idx, j)
			pnorm = append(pnorm, ns)
			pgrams = append(pgrams, bigrams(ns))
		}
	}
	if len(idx) == 0 {
		return -1, 0
	}
	if n*len(idx) > nearestMaxWork {
		return -1, 0
	}
	fuzzy := n*len(idx) <= nearestBudget
	if fuzzy && m.grams == nil {
		m.grams = make([][]uint64, n)
		for i, s := range norm {
			m.grams[i] = bigrams(s)
		}
	}
	// Windows may run past the end of the file (missing lines score 0),
	// so that a hunk whose last lines are gone still finds its first ones.
	best, bestScore := -1, -1.0
	for i := range n {
		total := 0.0
		for x, j := range idx {
			if i+j >= n {
				break
			}
			switch {
			case norm[i+j] == pnorm[x]:
				total++
			case fuzzy:
				total += dice(m.grams[i+j], pgrams[x])
			}
		}
		score := total / float64(len(idx))
		if score > bestScore || score == bestScore && absInt(i-from) < absInt(best-from) {
			best, bestScore = i, score
		}
	}
	if bestScore < nearestMinScore {
		return -1, bestScore
	}
	return best, bestScore
}

// snippet returns up to nearestMaxLines lines of the file from index i,
// at most k of them.
func (m *matcher) snippet(i, k int) string {
	end := min(len(m.lines), i+k)
	more := 0
	if end-i > nearestMaxLines {
		more = end - i - nearestMaxLines
		end = i + nearestMaxLines
	}
	s := strings.Join(m.lines[i:end], "\n")
	if more > 0 {
		s += "\n[... " + strconv.Itoa(more) + " more lines]"
	}
	return s
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// bigrams returns the sorted rune bigrams of s.
func bigrams(s string) []uint64 {
	var out []uint64
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			out = append(out, uint64(prev)<<32|uint64(uint32(r)))
		}
		prev = r
	}
	slices.Sort(out)
	return out
}

// dice returns the Sørensen–Dice coefficient of two sorted bigram
// multisets.
func dice(a, b []uint64) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	common := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			common++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b))
}
