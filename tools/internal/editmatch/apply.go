package editmatch

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// splice is one replacement in original byte offsets.
type splice struct {
	start, end int
	text       []byte
	edit       int
}

// Apply applies edits to original, the content of the file at path (path
// is used only in messages). Every edit is matched against original; all
// checks run before the new content is produced, so on error nothing is
// returned. Errors are always *Error.
func Apply(path string, original []byte, edits []Edit) (*Result, error) {
	if len(edits) == 0 {
		return nil, errNoEdits()
	}
	if !utf8.Valid(original) {
		return nil, errNotUTF8(path)
	}
	multi := len(edits) > 1
	for i, e := range edits {
		if e.OldText == "" {
			return nil, errEmptyOld(path, i, multi)
		}
	}
	m := &matcher{src: newSource(original), path: path, multi: multi}
	matches := make([]Match, len(edits))
	var splices []splice
	for i, e := range edits {
		found, err := m.find(i, e)
		if err != nil {
			return nil, err
		}
		match := Match{Index: i, Rule: found.rule, Count: len(found.occs)}
		for k, o := range found.occs {
			s := splice{
				start: m.src.origOffset(o.start),
				end:   m.src.origOffset(o.end),
				text:  m.src.insertion(o.repl),
				edit:  i,
			}
			if k == 0 {
				match.Start = s.start
			}
			match.End = s.end
			splices = append(splices, s)
		}
		matches[i] = match
	}
	sort.SliceStable(splices, func(a, b int) bool { return splices[a].start < splices[b].start })
	for k := 1; k < len(splices); k++ {
		if splices[k].start < splices[k-1].end {
			return nil, errOverlap(path, splices[k-1].edit, splices[k].edit)
		}
	}
	out := splice1(original, splices)
	if unchanged(original, out, splices) {
		return nil, errNoChange(path, multi)
	}
	return &Result{Content: out, Matches: matches}, nil
}

// splice1 builds the output in one pass. The splices are sorted and
// disjoint, and all offsets refer to the original, so this equals
// splicing them in from the end forward.
func splice1(original []byte, splices []splice) []byte {
	size := len(original)
	for _, s := range splices {
		size += len(s.text) - (s.end - s.start)
	}
	out := make([]byte, 0, size)
	prev := 0
	for _, s := range splices {
		out = append(out, original[prev:s.start]...)
		out = append(out, s.text...)
		prev = s.end
	}
	return append(out, original[prev:]...)
}

// unchanged reports whether out equals original. Outside the first and
// last splice both are equal by construction, so only the span between
// them is compared.
func unchanged(original, out []byte, splices []splice) bool {
	if len(out) != len(original) {
		return false
	}
	lo, hi := splices[0].start, splices[len(splices)-1].end
	return bytes.Equal(out[lo:hi], original[lo:hi])
}
