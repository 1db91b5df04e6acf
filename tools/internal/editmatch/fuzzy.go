package editmatch

import (
	"bytes"
	"strings"
)

// needleShape records how the old text's edges were normalised, which
// decides how a hit's edges map back to the LF text.
type needleShape struct {
	// guardEnd: the old text's last line lost trailing whitespace to
	// trimming, so the hit must end at a line end (that whitespace was
	// meant to match something), and the end maps after the file's
	// trailing whitespace.
	guardEnd bool
	// startBeforeWS: the old text starts with a whitespace-only line, so a
	// hit starting at a trimmed line end maps before the file's trailing
	// whitespace.
	startBeforeWS bool
}

func shapeOf(old string) needleShape {
	lines := strings.Split(old, "\n")
	last := normLine(lines[len(lines)-1], baseRules&^ruleTrailing)
	first := normLine(lines[0], baseRules&^ruleTrailing)
	return needleShape{
		guardEnd:      strings.TrimRightFunc(last, isTrimSpace) != last,
		startBeforeWS: len(lines) > 1 && first != "" && strings.TrimRightFunc(first, isTrimSpace) == "",
	}
}

// searchResult collects the candidates of one fuzzy stage.
type searchResult struct {
	occs       []occ
	unmappable int
	capped     bool // gave up after maxRejected rejected candidates
}

// fuzzy runs the fuzzy stages in order. It returns (nil, nil) when no
// stage found the text.
func (m *matcher) fuzzy(i int, e Edit, old, repl string) (*found, error) {
	nOld := normText(old, baseRules)
	if !hasContent(nOld) {
		return nil, nil
	}
	shape := shapeOf(old)
	stages := []struct {
		stage ruleSet
		run   func() searchResult
	}{
		{0, func() searchResult {
			return m.charSearch(m.baseIndex(), nOld, shape, repl, e.ReplaceAll)
		}},
		{ruleIndentation, func() searchResult {
			return m.lineSearch(m.baseIndex(), nOld, shape, repl, e.ReplaceAll)
		}},
		{ruleInterior, func() searchResult {
			return m.charSearch(m.collIndex(), collapseText(nOld), shape, repl, e.ReplaceAll)
		}},
		{ruleIndentation | ruleInterior, func() searchResult {
			return m.lineSearch(m.collIndex(), collapseText(nOld), shape, repl, e.ReplaceAll)
		}},
	}
	for _, st := range stages {
		r := st.run()
		switch {
		case r.unmappable > 0 && (r.capped || len(r.occs) == 0):
			// Never guess with looser rules past an unsafe boundary.
			return nil, errBoundary(m.path, i, m.multi)
		case r.capped:
			// Gave up on pathological input: refuse rather than guess.
			return nil, nil
		case len(r.occs) > 1 && !e.ReplaceAll:
			starts := make([]int, len(r.occs))
			for k, o := range r.occs {
				starts[k] = o.start
			}
			lines, more := lineNumbers(m.src.lf, starts)
			return nil, errNotUnique(m.path, i, m.multi, len(r.occs), lines, more)
		case len(r.occs) > 0:
			first := r.occs[0]
			span := string(m.src.lf[first.start:first.end])
			return &found{occs: r.occs, rule: ruleFor(st.stage, span, old)}, nil
		}
	}
	return nil, nil
}

// charSearch finds needle in the index text and maps the clean hits back
// to the LF text: every non-overlapping hit with all set; otherwise the
// first hit and whether any other hit, overlapping ones included, exists
// (with a count of the non-overlapping ones for the message).
func (m *matcher) charSearch(x *normIndex, needle string, shape needleShape, repl string, all bool) searchResult {
	var r searchResult
	nb := []byte(needle)
	rejected := 0
	for from := 0; from <= len(x.text); {
		at := bytes.Index(x.text[from:], nb)
		if at < 0 {
			break
		}
		at += from
		end := at + len(nb)
		s, t, ok := m.mapHit(x, at, end, shape)
		if !ok {
			if s >= 0 { // mapped, but not a hit: the guard rejected it
				rejected++
			} else {
				r.unmappable++
				rejected++
			}
			if rejected >= maxRejected {
				r.capped = true
				break
			}
			from = at + 1
			continue
		}
		r.occs = append(r.occs, occ{start: s, end: t, repl: repl})
		from = end
		if !all && len(r.occs) == 1 {
			from = at + 1 // an overlapping second hit makes it ambiguous too
		}
	}
	return r
}

// mapHit maps the hit text[at:end] of the index back to the LF text. ok
// is false if the hit is rejected: s is then -1 when a boundary is
// unmappable and 0 when the trailing-whitespace guard refused it.
func (m *matcher) mapHit(x *normIndex, at, end int, shape needleShape) (s, t int, ok bool) {
	if shape.guardEnd && end < len(x.text) && x.text[end] != '\n' {
		return 0, 0, false
	}
	s, t = x.startAt(at), x.endAt(end)
	if shape.startBeforeWS {
		s = x.endAt(at)
	}
	if shape.guardEnd {
		t = x.startAt(end)
	}
	if s < 0 || t < 0 || s >= t {
		return -1, -1, false
	}
	return s, t, true
}

// ruleFor names the rules a fuzzy hit needed: the base rules without
// which span and old would no longer compare equal at this stage (or,
// when that test is inconclusive, every base rule that changes either
// side), plus the stage's own rules.
func ruleFor(stage ruleSet, span, old string) string {
	equal := func(mask ruleSet) bool {
		a, b := normTextExclusive(span, mask), normTextExclusive(old, mask)
		if stage&ruleInterior != 0 {
			a, b = collapseText(a), collapseText(b)
		}
		if stage&ruleIndentation != 0 {
			return equalStripped(a, b)
		}
		return a == b
	}
	var need ruleSet
	if equal(baseRules) {
		for _, rule := range []ruleSet{ruleNFKC, ruleTrailing, ruleQuotes, ruleDashes, ruleSpaces} {
			if !equal(baseRules &^ rule) {
				need |= rule
			}
		}
	}
	if need == 0 {
		need = firedRules(span) | firedRules(old)
	}
	if need|stage == 0 {
		need = baseRules
	}
	return (need | stage).String()
}

// equalStripped compares two texts line by line, ignoring leading
// indentation.
func equalStripped(a, b string) bool {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(al) != len(bl) {
		return false
	}
	for k := range al {
		if al[k][indentLen(al[k]):] != bl[k][indentLen(bl[k]):] {
			return false
		}
	}
	return true
}
