package search

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IndexQuery is a formula over trigrams that every file holding a match
// of a search satisfies: an AND or OR of trigrams and smaller formulas. It
// is evaluated against a trigram index, whose candidates are then searched
// as usual; a candidate need not match, but a file the formula rules out
// holds no match. The nil *IndexQuery is the formula true: the index
// cannot narrow the search, and every file must be scanned.
type IndexQuery struct {
	op   queryOp
	tris []uint32 // trigrams: all (and) or any (or) of them
	sub  []*IndexQuery
}

type queryOp uint8

const (
	qAll  queryOp = iota // true: matches everything
	qNone                // false: matches nothing
	qAnd
	qOr
)

var (
	queryAll  = &IndexQuery{op: qAll}
	queryNone = &IndexQuery{op: qNone}
)

// String shows the formula, trigrams quoted, for tests and debugging.
func (q *IndexQuery) String() string {
	if q == nil {
		return "+"
	}
	switch q.op {
	case qAll:
		return "+"
	case qNone:
		return "-"
	}
	var parts []string
	for _, t := range q.tris {
		parts = append(parts, `"`+string([]byte{byte(t), byte(t >> 8), byte(t >> 16)})+`"`)
	}
	for _, s := range q.sub {
		parts = append(parts, "("+s.String()+")")
	}
	sep := " "
	if q.op == qOr {
		sep = "|"
	}
	return strings.Join(parts, sep)
}

// None reports whether the formula is false: no file can match.
func (q *IndexQuery) None() bool { return q != nil && q.op == qNone }

// Trigrams returns the distinct trigrams the formula mentions, in
// increasing order.
func (q *IndexQuery) Trigrams() []uint32 {
	var out []uint32
	var visit func(*IndexQuery)
	visit = func(q *IndexQuery) {
		out = append(out, q.tris...)
		for _, s := range q.sub {
			visit(s)
		}
	}
	if q != nil {
		visit(q)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Eval returns, in increasing order, the documents that satisfy the
// formula, given each trigram's posting list (increasing). universe lists
// every document, for the formula true.
func (q *IndexQuery) Eval(postings map[uint32][]uint32, universe []uint32) []uint32 {
	if q == nil {
		return universe
	}
	switch q.op {
	case qAll:
		return universe
	case qNone:
		return nil
	}
	var acc []uint32
	first := true
	add := func(l []uint32) {
		switch {
		case first:
			acc, first = l, false
		case q.op == qAnd:
			acc = intersect(acc, l)
		default:
			acc = union(acc, l)
		}
	}
	for _, t := range q.tris {
		add(postings[t])
		if q.op == qAnd && len(acc) == 0 {
			return nil
		}
	}
	for _, s := range q.sub {
		add(s.Eval(postings, universe))
		if q.op == qAnd && len(acc) == 0 {
			return nil
		}
	}
	return acc
}

func intersect(a, b []uint32) []uint32 {
	var out []uint32
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

func union(a, b []uint32) []uint32 {
	out := make([]uint32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// and returns a AND b.
func (a *IndexQuery) and(b *IndexQuery) *IndexQuery { return combine(qAnd, a, b) }

// or returns a OR b.
func (a *IndexQuery) or(b *IndexQuery) *IndexQuery { return combine(qOr, a, b) }

func combine(op queryOp, a, b *IndexQuery) *IndexQuery {
	// The identity of op, and its absorbing element.
	id, zero := queryAll, queryNone
	if op == qOr {
		id, zero = queryNone, queryAll
	}
	switch {
	case a.op == zero.op || b.op == zero.op:
		return zero
	case a.op == id.op:
		return b
	case b.op == id.op:
		return a
	}
	out := &IndexQuery{op: op}
	for _, x := range []*IndexQuery{a, b} {
		if x.op == op || len(x.tris) == 1 && len(x.sub) == 0 {
			out.tris = append(out.tris, x.tris...)
			out.sub = append(out.sub, x.sub...)
		} else {
			out.sub = append(out.sub, x)
		}
	}
	slices.Sort(out.tris)
	out.tris = slices.Compact(out.tris)
	return out
}

// trigramsOf returns the formula "contains one of the strings in set":
// the OR over them of the AND of each one's trigrams. A string shorter
// than a trigram makes it true.
func trigramsOf(set []string) *IndexQuery {
	if len(set) > maxQuerySet {
		return queryAll
	}
	q := queryNone
	for _, s := range set {
		if len(s) < 3 {
			return queryAll
		}
		and := &IndexQuery{op: qAnd}
		for i := 0; i+3 <= len(s); i++ {
			and.tris = append(and.tris, uint32(s[i])|uint32(s[i+1])<<8|uint32(s[i+2])<<16)
		}
		slices.Sort(and.tris)
		and.tris = slices.Compact(and.tris)
		if len(and.tris) == 1 {
			and.op = qOr // one trigram: the same formula either way
		}
		q = q.or(and)
	}
	return q
}

// Bounds that keep the analysis of a regular expression small: string
// sets with more members are given up on (which only weakens the
// formula), and character classes of more runes count as any character.
const (
	maxStringSet = 16
	maxQuerySet  = 64
	maxClass     = 8
)

// regexInfo is what the analysis of a regular expression knows about the
// strings it matches, all lower-cased in ASCII as the index is.
type regexInfo struct {
	canEmpty bool
	// exact, when haveExact, is the set of every string the expression
	// matches. Otherwise prefix and suffix hold strings one of which
	// starts (ends) every match; "" in them says nothing.
	haveExact      bool
	exact          []string
	prefix, suffix []string
	// match is a formula every match satisfies, beyond what exact,
	// prefix and suffix say.
	match *IndexQuery
}

// regexIndexQuery returns the trigram formula of a parsed regular
// expression, or nil when it has no usable trigram.
func regexIndexQuery(re *syntax.Regexp) *IndexQuery {
	info := analyze(re.Simplify())
	q := info.match
	if info.haveExact {
		q = q.and(trigramsOf(info.exact))
	} else {
		q = q.and(trigramsOf(info.prefix)).and(trigramsOf(info.suffix))
	}
	if q.op == qAll {
		return nil
	}
	return q
}

// literalIndexQuery returns the formula for a literal search: all the
// trigrams of lit, lower-cased; nil when lit is shorter than a trigram.
func literalIndexQuery(lit []byte) *IndexQuery {
	q := trigramsOf([]string{string(toLowerASCII(lit))})
	if q.op == qAll {
		return nil
	}
	return q
}

func emptyString() regexInfo {
	return regexInfo{canEmpty: true, haveExact: true, exact: []string{""}, match: queryAll}
}

func anyChar() regexInfo {
	return regexInfo{prefix: []string{""}, suffix: []string{""}, match: queryAll}
}

func anyMatch() regexInfo {
	return regexInfo{canEmpty: true, prefix: []string{""}, suffix: []string{""}, match: queryAll}
}

func analyze(re *syntax.Regexp) regexInfo {
	switch re.Op {
	case syntax.OpNoMatch:
		return regexInfo{haveExact: true, exact: []string{}, match: queryNone}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return emptyString()
	case syntax.OpLiteral:
		info := emptyString()
		for _, r := range re.Rune {
			info = concat(info, runeInfo(r, re.Flags&syntax.FoldCase != 0))
		}
		return info
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return anyChar()
	case syntax.OpCharClass:
		n := 0
		for i := 0; i < len(re.Rune); i += 2 {
			n += int(re.Rune[i+1]-re.Rune[i]) + 1
			if n > maxClass {
				return anyChar()
			}
		}
		var set []string
		for i := 0; i < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				set = append(set, lowerRune(r))
			}
		}
		return exactSet(set)
	case syntax.OpCapture:
		return analyze(re.Sub[0])
	case syntax.OpStar:
		return anyMatch()
	case syntax.OpQuest:
		return alternate(analyze(re.Sub[0]), emptyString())
	case syntax.OpPlus:
		// x+ is x followed by anything x* matches.
		return concat(analyze(re.Sub[0]), anyMatch())
	case syntax.OpConcat:
		info := emptyString()
		for _, sub := range re.Sub {
			info = concat(info, analyze(sub))
		}
		return info
	case syntax.OpAlternate:
		info := analyze(re.Sub[0])
		for _, sub := range re.Sub[1:] {
			info = alternate(info, analyze(sub))
		}
		return info
	}
	// OpRepeat does not survive Simplify; anything else new: no
	// knowledge, which is always safe.
	return anyMatch()
}

// runeInfo is the info of one literal rune, all its case variants when
// fold is set (so (?i)k is k, K or U+212A KELVIN SIGN).
func runeInfo(r rune, fold bool) regexInfo {
	set := []string{lowerRune(r)}
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			set = append(set, lowerRune(f))
		}
	}
	return exactSet(set)
}

func lowerRune(r rune) string {
	return string(toLowerASCII(utf8.AppendRune(nil, r)))
}

func exactSet(set []string) regexInfo {
	slices.Sort(set)
	return simplify(regexInfo{haveExact: true, exact: slices.Compact(set), match: queryAll})
}

// concat is the info of xy.
func concat(x, y regexInfo) regexInfo {
	out := regexInfo{canEmpty: x.canEmpty && y.canEmpty, match: x.match.and(y.match)}
	if x.haveExact && y.haveExact {
		out.haveExact, out.exact = true, cross(x.exact, y.exact)
		return simplify(out)
	}
	xs, yp := x.suffix, y.prefix
	if x.haveExact {
		xs = x.exact
	}
	if y.haveExact {
		yp = y.exact
	}
	switch {
	case x.haveExact:
		out.prefix = cross(x.exact, y.prefix)
	case x.canEmpty:
		out.prefix = unionSet(x.prefix, y.prefix)
	default:
		out.prefix = x.prefix
	}
	switch {
	case y.haveExact:
		out.suffix = cross(x.suffix, y.exact)
	case y.canEmpty:
		out.suffix = unionSet(y.suffix, xs)
	default:
		out.suffix = y.suffix
	}
	// Where x's match ends and y's begins, one of x's suffixes meets one
	// of y's prefixes.
	if len(xs)*len(yp) <= maxQuerySet {
		out.match = out.match.and(trigramsOf(cross(xs, yp)))
	}
	return simplify(out)
}

// alternate is the info of x|y.
func alternate(x, y regexInfo) regexInfo {
	out := regexInfo{canEmpty: x.canEmpty || y.canEmpty}
	if x.haveExact && y.haveExact {
		out.haveExact, out.exact = true, unionSet(x.exact, y.exact)
		out.match = x.match.or(y.match)
		return simplify(out)
	}
	x, y = inexact(x), inexact(y)
	out.prefix = unionSet(x.prefix, y.prefix)
	out.suffix = unionSet(x.suffix, y.suffix)
	out.match = x.match.or(y.match)
	return simplify(out)
}

// inexact turns an exact info into the equivalent prefix, suffix and
// formula.
func inexact(x regexInfo) regexInfo {
	if !x.haveExact {
		return x
	}
	return regexInfo{canEmpty: x.canEmpty, prefix: x.exact, suffix: x.exact,
		match: x.match.and(trigramsOf(x.exact))}
}

// simplify keeps the sets small: an exact set too large to keep becomes
// prefixes and suffixes, and the trigrams wholly inside prefixes and
// suffixes move into the formula, leaving only the two bytes at their
// open end, which is all that can form a trigram with what comes next.
func simplify(x regexInfo) regexInfo {
	if x.haveExact {
		if len(x.exact) <= maxStringSet {
			return x
		}
		x = inexact(x)
	}
	x.match = x.match.and(trigramsOf(x.prefix)).and(trigramsOf(x.suffix))
	x.prefix = trimSet(x.prefix, false)
	x.suffix = trimSet(x.suffix, true)
	return x
}

// trimSet cuts each string to its first (or, for suffixes, last) two
// bytes, and fewer while the set is too large.
func trimSet(set []string, suffix bool) []string {
	for n := 2; ; n-- {
		out := make([]string, 0, len(set))
		for _, s := range set {
			if len(s) > n {
				if suffix {
					s = s[len(s)-n:]
				} else {
					s = s[:n]
				}
			}
			out = append(out, s)
		}
		slices.Sort(out)
		out = slices.Compact(out)
		if len(out) <= maxStringSet || n == 0 {
			return out
		}
	}
}

func cross(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func unionSet(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}
