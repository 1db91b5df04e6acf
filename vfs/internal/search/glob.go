package search

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Glob is a compiled doublestar pattern. It matches slash-separated paths
// relative to the searched directory, such as "src/main.go" (no leading
// slash, no "." or ".." components).
//
// The syntax is doublestar's: '*' matches any run of characters other than
// '/', '?' one character other than '/', "[...]" a character class, "{a,b}"
// alternatives, and a "**" path component zero or more directories. A
// pattern is matched against the whole relative path, so "*.go" matches only
// Go files directly in the searched directory while "**/*.go" matches them
// at any depth. There is no hidden-file rule: '*' matches names starting
// with a dot. The empty pattern matches every path.
type Glob struct {
	pattern string
	// segs is the pattern split at the slashes that separate path
	// components; nil for the empty pattern.
	segs []segment
}

// segment is one slash-separated component of a glob pattern.
type segment struct {
	pat  string // the component's pattern followed by a slash
	kind segmentKind
}

type segmentKind uint8

const (
	// segOne matches exactly one path component c, as
	// doublestar.Match(pat, c+"/") says.
	segOne segmentKind = iota
	// segAny is "**": zero or more path components.
	segAny
	// segOpaque may match text containing '/' (an escaped slash, a
	// character class matching '/', alternatives containing '/' or
	// combining into "**"), so it is not analysed component by component.
	segOpaque
)

// maxGlobSegments bounds the segment-set bitmap of CouldMatchUnder; a
// pattern with more segments is never used for pruning.
const maxGlobSegments = 63

// maxGlobAlternatives bounds how many patterns a pattern's "{...}"
// alternatives may stand for: doublestar tries them by backtracking, in
// time exponential in the number of groups.
const maxGlobAlternatives = 256

// CompileGlob compiles a doublestar pattern. An invalid pattern, or one
// with alternatives standing for more than 256 patterns, yields an error
// wrapping doublestar.ErrBadPattern.
func CompileGlob(pattern string) (*Glob, error) {
	if err := checkPattern(pattern); err != nil {
		return nil, fmt.Errorf("%w: %q", err, pattern)
	}
	return &Glob{pattern: pattern, segs: splitPattern(pattern)}, nil
}

// checkPattern returns an error wrapping doublestar.ErrBadPattern if p is
// not a valid pattern or has too many alternatives.
func checkPattern(p string) error {
	if !doublestar.ValidatePattern(p) {
		return doublestar.ErrBadPattern
	}
	// Bound the patterns that the braces stand for by the product of
	// their groups' sizes, nested ones included.
	total := 1
	var sizes []int // of the open groups
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			i = classEnd(p, i)
		case '{':
			sizes = append(sizes, 1)
		case ',':
			if len(sizes) > 0 {
				sizes[len(sizes)-1]++
			}
		case '}':
			total = min(total*sizes[len(sizes)-1], maxGlobAlternatives+1)
			sizes = sizes[:len(sizes)-1]
		}
	}
	if total > maxGlobAlternatives {
		return fmt.Errorf("%w: alternatives stand for more than %d patterns", doublestar.ErrBadPattern, maxGlobAlternatives)
	}
	return nil
}

// Match reports whether the relative path rel matches the pattern.
func (g *Glob) Match(rel string) bool {
	return g.pattern == "" || doublestar.MatchUnvalidated(g.pattern, rel)
}

// CouldMatchUnder reports whether some path strictly below the directory
// relDir (a relative path; "" is the searched directory itself) may match
// the pattern. A false result is a guarantee that the walker can skip the
// directory's contents; a true result promises nothing. Once relDir
// reaches a part of the pattern that cannot be analysed component by
// component (for example alternatives spanning a slash), the result is
// true.
func (g *Glob) CouldMatchUnder(relDir string) bool {
	n := len(g.segs)
	if n == 0 || n > maxGlobSegments || relDir == "" {
		return true
	}
	// Simulate the pattern as an automaton over path components: bit i of
	// states is set when the components consumed so far can be matched by
	// segs[:i]; bit n means the whole pattern has been used up.
	states := g.closure(1)
	// Each component is matched with its trailing slash, as it is in a
	// longer path: doublestar.Match("a*{x,}", "a") is false although
	// "a*{x,}/b" matches "a/b", while "a*{x,}/" matches "a/".
	for rest := relDir + "/"; rest != ""; {
		slash := strings.IndexByte(rest, '/')
		comp := rest[:slash+1]
		rest = rest[slash+1:]
		var next uint64
		for i := range n {
			if states&(1<<i) == 0 {
				continue
			}
			switch s := g.segs[i]; s.kind {
			case segOpaque:
				return true
			case segAny:
				next |= 1 << i
			case segOne:
				if doublestar.MatchUnvalidated(s.pat, comp) {
					next |= 1 << (i + 1)
				}
			}
		}
		if states = g.closure(next); states == 0 {
			return false
		}
	}
	// A path below relDir has at least one more component, which needs a
	// segment that has not been used yet.
	return states&^(1<<n) != 0
}

// closure adds to states the states reachable by letting "**" segments
// match zero components.
func (g *Glob) closure(states uint64) uint64 {
	for i, s := range g.segs {
		if s.kind == segAny && states&(1<<i) != 0 {
			states |= 1 << (i + 1)
		}
	}
	return states
}

// splitPattern splits a valid pattern at the slashes that separate path
// components and classifies each component.
func splitPattern(p string) []segment {
	if p == "" {
		return nil
	}
	var segs []segment
	start, depth := 0, 0
	slashy, braces, classes, stars := false, false, false, 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
			slashy = slashy || p[i] == '/'
		case '[':
			end := classEnd(p, i)
			classes = true
			slashy = slashy || doublestar.MatchUnvalidated(p[i:end+1], "/")
			i = end
		case '{':
			depth++
			braces = true
		case '}':
			depth--
		case '*':
			stars++
		case '/':
			if depth > 0 {
				slashy = true
				continue
			}
			segs = append(segs, newSegment(p[start:i], slashy || braces && (classes || stars > 1)))
			start = i + 1
			slashy, braces, classes, stars = false, false, false, 0
		}
	}
	return append(segs, newSegment(p[start:], slashy || braces && (classes || stars > 1)))
}

func newSegment(pat string, opaque bool) segment {
	switch {
	case opaque:
		return segment{kind: segOpaque}
	case pat == "**":
		return segment{kind: segAny}
	}
	return segment{pat + "/", segOne}
}

// classEnd returns the index of the ']' closing the character class that
// starts at p[i] == '[' in a valid pattern.
func classEnd(p string, i int) int {
	i++
	if p[i] == '!' || p[i] == '^' {
		i++
	}
	// The first member is never ']' in a valid pattern (empty classes are
	// rejected), so the scan can stop at the first unescaped ']'.
	for ; p[i] != ']'; i++ {
		if p[i] == '\\' {
			i++
		}
	}
	return i
}
