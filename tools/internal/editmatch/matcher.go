package editmatch

import (
	"bytes"
	"strings"
)

// matcher finds edits in one source. The normalised indexes are built
// lazily, once, and shared by all edits of an Apply call.
type matcher struct {
	src   *source
	path  string
	multi bool

	base, coll *normIndex
}

// occ is one occurrence to replace: an LF-text range and the LF-normalised
// replacement text for it.
type occ struct {
	start, end int
	repl       string
}

// found is how one edit matched.
type found struct {
	occs []occ
	rule string
}

// maxFuzzyBytes bounds the content size for fuzzy matching; offsets in
// the indexes are int32.
const maxFuzzyBytes = 1 << 30

// maxRejected is how many rejected candidates (unmappable, or refused by
// the trailing-whitespace guard or the indentation check) one fuzzy stage
// examines before giving up; it bounds the work on pathological input.
// Giving up after an unmappable candidate is the fuzzy-boundary error;
// otherwise the text counts as not found.
const maxRejected = 1024

func (m *matcher) baseIndex() *normIndex {
	if m.base == nil {
		m.base = buildBaseIndex(m.src.lf)
	}
	return m.base
}

func (m *matcher) collIndex() *normIndex {
	if m.coll == nil {
		m.coll = m.baseIndex().collapsed()
	}
	return m.coll
}

// find locates edit i: exactly first, then through the fuzzy stages.
func (m *matcher) find(i int, e Edit) (*found, error) {
	// Edits arrive as JSON strings, always valid UTF-8; a Go caller's
	// invalid bytes are read the way a JSON decoder would read them, as
	// U+FFFD. This also keeps every match on rune boundaries and the
	// output valid UTF-8.
	old := toLF(strings.ToValidUTF8(e.OldText, "\uFFFD"))
	repl := toLF(strings.ToValidUTF8(e.NewText, "\uFFFD"))
	lf := m.src.lf
	needle := []byte(old)
	at := indexFast(lf, needle)
	if at >= 0 {
		if e.ReplaceAll {
			var occs []occ
			for at >= 0 {
				occs = append(occs, occ{start: at, end: at + len(needle), repl: repl})
				next := indexFast(lf[at+len(needle):], needle)
				if next < 0 {
					break
				}
				at += len(needle) + next
			}
			return &found{occs: occs, rule: RuleExact}, nil
		}
		// Overlapping occurrences count too: "aa" in "aaa" is ambiguous.
		if second := indexFast(lf[at+1:], needle); second >= 0 {
			lines, more := exactLines(lf, needle, at, at+1+second)
			return nil, errNotUnique(m.path, i, m.multi, max(2, bytes.Count(lf, needle)), lines, more)
		}
		return &found{occs: []occ{{start: at, end: at + len(needle), repl: repl}}, rule: RuleExact}, nil
	}
	if len(lf) > maxFuzzyBytes {
		return nil, errNotFound(m.path, i, m.multi, "")
	}
	f, err := m.fuzzy(i, e, old, repl)
	if err != nil || f != nil {
		return f, err
	}
	return nil, errNotFound(m.path, i, m.multi, m.hint(old))
}

// hasContent reports whether s has something other than whitespace.
func hasContent(s string) bool {
	return strings.TrimFunc(s, func(r rune) bool { return r == '\n' || isTrimSpace(r) }) != ""
}

// exactLines returns the lines of the first occurrences of needle in lf
// (see lineNumbers), which has one at first and the next (perhaps
// overlapping) at second; later ones are found without overlap, as they
// are counted. It stops at the line after the last it can list.
func exactLines(lf, needle []byte, first, second int) ([]int, bool) {
	starts := []int{first, second}
	distinct := 1
	if first < second && bytes.IndexByte(lf[first:second], '\n') >= 0 {
		distinct = 2
	}
	for at := second + len(needle); distinct <= maxListedLines; {
		next := indexFast(lf[at:], needle)
		if next < 0 {
			break
		}
		if bytes.IndexByte(lf[starts[len(starts)-1]:at+next], '\n') >= 0 {
			distinct++
		}
		starts = append(starts, at+next)
		at += next + len(needle)
	}
	return lineNumbers(lf, starts)
}
