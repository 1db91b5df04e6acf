package search

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// DefaultMaxLineBytes is the default Options.MaxLineBytes.
const DefaultMaxLineBytes = 4096

// MaxMatchLineBytes is how much of a line is searched: a longer line is
// matched on its first MaxMatchLineBytes bytes only, as if it ended there
// (so a regular expression's $ matches at the cut), which bounds a
// Scanner's memory whatever the file holds. A regular expression whose
// program is large searches less of each line (see regexStepBudget).
const MaxMatchLineBytes = 1 << 20

// regexStepBudget bounds the work of one regular-expression search, which
// nothing can interrupt: RE2 takes up to one step per byte and program
// instruction, so an expression of n instructions searches at most
// regexStepBudget/n bytes of a line (and of a window, see regexWindow),
// but never less than minMatchLineBytes. A pattern of up to 32
// instructions keeps the whole MaxMatchLineBytes; (.*){1000}, about 4,000
// instructions, searches the first 8 KiB of each line, and one search
// takes a fraction of a second (about 0.4 s on a loaded 2-core machine)
// instead of a minute.
const regexStepBudget = 32 << 20

// minMatchLineBytes is the least of a line any pattern searches.
const minMatchLineBytes = 1 << 10

// Options configure a grep search.
type Options struct {
	// Pattern is what to look for: a literal string unless Regex is set.
	// It must not be empty, and a literal must not contain "\n". A line
	// matches when it contains a match.
	Pattern string
	// Regex makes Pattern a Go regular expression (RE2 syntax). It is
	// matched against each line's text without its line terminator, so
	// ^ and $ match at the start and end of every line.
	Regex bool
	// IgnoreCase makes the search case-insensitive. A pure-ASCII literal
	// is compared ignoring ASCII case only; other patterns use Unicode
	// simple case folding, as regexp's (?i) does.
	IgnoreCase bool
	// Context is how many lines before and after each matching line to
	// report, like grep -C.
	Context int
	// MaxLineBytes caps the length of each reported line's text; 0 means
	// DefaultMaxLineBytes. Values above the part of a line that is
	// searched (MaxMatchLineBytes, or less for a large regular
	// expression) act as that.
	MaxLineBytes int
}

// Matcher is a compiled grep search. It is immutable and safe for
// concurrent use; each goroutine scans files with its own [Scanner].
type Matcher struct {
	// Candidate lines are found in a buffer of whole lines by exactly one
	// of: needle (exact bytes), fold (ASCII case-insensitive) or bufRe.
	needle []byte
	fold   *foldFinder
	bufRe  *regexp.Regexp
	// exact says that a candidate found by needle or fold is a match.
	exact bool
	// lineRe, if set, decides whether a line's text matches; otherwise a
	// line matches when the candidate search finds something in it.
	lineRe *regexp.Regexp

	context  int
	maxLine  int // Options.MaxLineBytes, resolved
	matchCap int // MaxMatchLineBytes, lowered by tests
	window   int // regexWindow, lowered by tests
	query    *Query
	indexQ   *IndexQuery
}

// Compile validates and compiles grep options.
func Compile(o Options) (*Matcher, error) {
	switch {
	case o.Pattern == "":
		return nil, errors.New("empty pattern")
	case o.Context < 0:
		return nil, fmt.Errorf("negative context %d", o.Context)
	case o.MaxLineBytes < 0:
		return nil, fmt.Errorf("negative line length limit %d", o.MaxLineBytes)
	case !o.Regex && strings.Contains(o.Pattern, "\n"):
		return nil, errors.New("pattern contains a newline, but lines are searched one at a time")
	}
	m := &Matcher{
		context:  o.Context,
		maxLine:  min(cmp.Or(o.MaxLineBytes, DefaultMaxLineBytes), MaxMatchLineBytes),
		matchCap: MaxMatchLineBytes,
		window:   regexWindow,
	}
	defer func() { m.maxLine = min(m.maxLine, m.matchCap) }()
	if o.Regex || o.IgnoreCase && !isASCII(o.Pattern) {
		expr := o.Pattern
		if !o.Regex {
			expr = regexp.QuoteMeta(expr)
		}
		if err := m.compileRegex(expr, o.IgnoreCase); err != nil {
			return nil, err
		}
		return m, nil
	}
	lit := []byte(o.Pattern)
	if o.IgnoreCase && bytes.ContainsFunc(lit, isASCIILetter) {
		m.fold = newFoldFinder(lit)
	} else {
		m.needle = lit
	}
	// A '\r' in the needle could be matched by the one that precedes a
	// "\n" and is not part of the line's text.
	m.exact = !strings.Contains(o.Pattern, "\r")
	m.query = newQuery([][]byte{toLowerASCII(lit)})
	m.indexQ = literalIndexQuery(lit)
	return m, nil
}

// compileRegex sets m up for the regular expression expr.
func (m *Matcher) compileRegex(expr string, ignoreCase bool) error {
	flags := syntax.Perl
	if ignoreCase {
		flags |= syntax.FoldCase
	}
	re, err := syntax.Parse(expr, flags)
	if err == nil {
		if ignoreCase {
			expr = "(?i)" + expr
		}
		m.lineRe, err = regexp.Compile(expr)
	}
	if err != nil {
		var serr *syntax.Error
		if errors.As(err, &serr) {
			return fmt.Errorf("invalid regular expression: %s: `%s`", serr.Code, serr.Expr)
		}
		return fmt.Errorf("invalid regular expression: %w", err)
	}
	if prog, err := syntax.Compile(re.Simplify()); err == nil {
		n := max(1, len(prog.Inst))
		m.matchCap = max(minMatchLineBytes, min(MaxMatchLineBytes, regexStepBudget/n))
		m.window = max(minMatchLineBytes, min(regexWindow, regexStepBudget/n))
	}
	m.indexQ = regexIndexQuery(re)
	pieces := requiredPieces(re)
	lower := make([][]byte, len(pieces))
	for i, p := range pieces {
		lower[i] = toLowerASCII(p.s)
	}
	m.query = newQuery(lower)

	// Look for the longest required piece and let lineRe judge the lines
	// that contain it; failing that, search with a line-safe form of re.
	var best piece
	for _, p := range pieces {
		if len(p.s) > len(best.s) {
			best = p
		}
	}
	switch {
	case len(best.s) >= minPrefilterLen && best.fold:
		m.fold = newFoldFinder(best.s)
	case len(best.s) >= minPrefilterLen:
		m.needle = best.s
	default:
		lineSafe(re)
		if m.bufRe, err = regexp.Compile(re.String()); err != nil {
			return fmt.Errorf("search: compiling the line-safe form of %q: %w", expr, err)
		}
	}
	return nil
}

// minPrefilterLen is the shortest required piece of a regular expression
// worth searching for instead of running the expression over the buffer.
const minPrefilterLen = 2

func isASCIILetter(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
}

// toLowerASCII returns a copy of b in ASCII lower case.
func toLowerASCII(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = lowerASCII[c]
	}
	return out
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// MatchLineBytes returns how much of each line m searches:
// MaxMatchLineBytes, or less for a large regular expression.
func (m *Matcher) MatchLineBytes() int { return m.matchCap }

// Query returns the trigram query that every file containing a match
// satisfies, or nil when the pattern requires no string of three or more
// bytes.
func (m *Matcher) Query() *Query {
	return m.query
}

// IndexQuery returns the trigram formula that every file containing a
// match satisfies, for a trigram index (see [Trigrams]), or nil when the
// pattern has no usable trigram and every file must be scanned.
func (m *Matcher) IndexQuery() *IndexQuery {
	return m.indexQ
}

// index returns the offset of the first candidate in b[from:], counted
// from the start of b, or -1. A candidate lies in, or at the end of, the
// first line from b[from] on that may match. Successive calls on the same b
// must pass the same cursor and non-decreasing values of from.
func (m *Matcher) index(b []byte, from int, cur *foldCursor) int {
	var i int
	switch {
	case m.fold != nil:
		return m.fold.index(b, from, cur)
	case m.bufRe != nil:
		i = -1
		if loc := m.bufRe.FindIndex(b[from:]); loc != nil {
			i = loc[0]
		}
	default:
		i = bytes.Index(b[from:], m.needle)
	}
	if i < 0 {
		return -1
	}
	return from + i
}

// matchLine reports whether a line matches, given its text without the
// line terminator (and at most matchCap bytes of it).
func (m *Matcher) matchLine(text []byte) bool {
	if m.lineRe != nil {
		return m.lineRe.Match(text)
	}
	cur := newFoldCursor()
	return m.index(text, 0, &cur) >= 0
}
