package editmatch

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

const (
	hintMaxBytes     = 400     // the whole hint, prefix included
	hintLineMaxBytes = 120     // each quoted line
	hintLines        = 3       // quoted lines
	hintBudget       = 4 << 20 // bytes compared while searching
)

// hint returns " The closest text is at line <n>:\n<lines>" pointing at
// the place in the file that best resembles old, or "" when nothing is
// close enough. Lines are compared with the base normalisation and
// leading indentation ignored. A run of equal lines scores the bytes it
// matched plus the similarity (common prefix and suffix) of the line
// where it diverges; any other line scores its similarity to the old
// text's first non-blank line. The quote starts at the best line. The
// search is bounded by hintBudget bytes compared.
func (m *matcher) hint(old string) string {
	x := m.baseIndex()
	oldLines := strings.Split(strings.TrimSuffix(normText(old, baseRules), "\n"), "\n")
	strip := func(s string) string { return s[indentLen(s):] }
	total := 0
	byText := map[string][]int{}
	anchor := -1
	for i, l := range oldLines {
		s := strip(l)
		oldLines[i] = s
		total += len(s)
		if s != "" {
			byText[s] = append(byText[s], i)
			if anchor < 0 {
				anchor = i
			}
		}
	}
	if anchor < 0 {
		return ""
	}
	nFile := len(x.lineStarts)
	file := func(l int) []byte {
		line := x.text[x.lineStarts[l]:x.lineEnd(l)]
		return line[indentLen(line):]
	}
	bestScore, bestLine := 0, -1
	budget := hintBudget
	for j := 0; j < nFile && budget > 0; j++ {
		fl := file(j)
		budget -= len(fl) + 1
		if len(fl) == 0 {
			continue
		}
		is, ok := byText[string(fl)]
		if !ok {
			if score := similarity(oldLines[anchor], fl); score > bestScore {
				bestScore, bestLine = score, j
			}
			continue
		}
		for _, i := range is {
			if budget--; budget <= 0 {
				break
			}
			if i > 0 && j > 0 && oldLines[i-1] == string(file(j-1)) {
				continue // inside a run counted from its start
			}
			r, score := 0, 0
			for i+r < len(oldLines) && j+r < nFile && budget > 0 {
				f := file(j + r)
				budget -= len(f) + 1
				if string(f) != oldLines[i+r] {
					break
				}
				score += len(f)
				r++
			}
			div := j + r // the file line where the run diverges
			switch {
			case i+r < len(oldLines) && j+r < nFile:
				score += similarity(oldLines[i+r], file(j+r))
			case i > 0 && j > 0:
				div = j - 1
				score += similarity(oldLines[i-1], file(j-1))
			default:
				div = j
			}
			if score > bestScore {
				bestScore, bestLine = score, div
			}
		}
	}
	if bestLine < 0 || bestScore < max(3, min(12, total/2)) {
		return ""
	}
	return m.quote(bestLine)
}

// similarity is the length of the common prefix plus the common suffix
// of a and b, at most the shorter length.
func similarity(a string, b []byte) int {
	n := min(len(a), len(b))
	p := 0
	for p < n && a[p] == b[p] {
		p++
	}
	s := 0
	for s < n-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return p + s
}

// quote renders the hint for 0-based line l: up to hintLines lines of the
// original text (line endings normalised to LF), each cut to
// hintLineMaxBytes, the whole hint to hintMaxBytes.
func (m *matcher) quote(l int) string {
	lf := m.src.lf
	start := 0
	for range l {
		nl := bytes.IndexByte(lf[start:], '\n')
		if nl < 0 {
			return ""
		}
		start += nl + 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, " The closest text is at line %d:\n", l+1)
	for n := 0; n < hintLines && (n == 0 || start < len(lf)); n++ {
		end := len(lf)
		if nl := bytes.IndexByte(lf[start:], '\n'); nl >= 0 {
			end = start + nl
		}
		line := lf[start:end]
		if len(line) > hintLineMaxBytes {
			line = append(truncUTF8(line, hintLineMaxBytes-len("…")), "…"...)
		}
		if n > 0 {
			if b.Len()+1+len(line) > hintMaxBytes {
				break
			}
			b.WriteByte('\n')
		}
		b.Write(line)
		if end == len(lf) {
			break
		}
		start = end + 1
	}
	s := b.String()
	if len(s) > hintMaxBytes {
		s = string(truncUTF8([]byte(s), hintMaxBytes))
	}
	return s
}

// truncUTF8 returns a copy of at most n bytes of b, cut at a rune start.
func truncUTF8(b []byte, n int) []byte {
	if len(b) <= n {
		return append([]byte(nil), b...)
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return append([]byte(nil), b[:n]...)
}
