package search

import (
	"regexp/syntax"
	"slices"
	"unicode"
	"unicode/utf8"
)

// piece is a string that every match of a regular expression contains.
type piece struct {
	// s holds the bytes; those of case-folded letters are in ASCII lower
	// case.
	s []byte
	// fold is set when some of s is case-folded, so that s must be looked
	// for ignoring ASCII case.
	fold bool
}

// requiredPieces returns strings that every match of re contains. It
// collects the literal runs of concatenations, which is enough for the
// common shapes (`func \w+Error`, `(?i)todo:`); alternations, classes and
// optional parts contribute nothing.
//
// A case-folded letter is kept only when all its case variants are ASCII:
// (?i)k also matches U+212A KELVIN SIGN, which no ASCII-folding search
// would find, so it ends a piece like any non-ASCII case-folded rune.
func requiredPieces(re *syntax.Regexp) []piece {
	var c pieceCollector
	c.collect(re.Simplify())
	c.flush()
	return c.pieces
}

type pieceCollector struct {
	pieces []piece
	cur    piece
}

func (c *pieceCollector) collect(re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			c.addRune(r, re.Flags&syntax.FoldCase != 0)
		}
	case syntax.OpCapture:
		c.collect(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			c.collect(sub)
		}
	case syntax.OpPlus:
		// x+ starts with an x, which continues the current piece, and
		// ends with an x, which starts the next one.
		c.collect(re.Sub[0])
		c.flush()
		c.collect(re.Sub[0])
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		// Zero-width: the text on both sides is contiguous.
	default:
		c.flush()
	}
}

func (c *pieceCollector) addRune(r rune, foldCase bool) {
	if !foldCase || unicode.SimpleFold(r) == r {
		c.cur.s = utf8.AppendRune(c.cur.s, r)
		return
	}
	if r >= utf8.RuneSelf || foldsBeyondASCII(r) {
		c.flush()
		return
	}
	c.cur.s = append(c.cur.s, lowerASCII[r])
	c.cur.fold = true
}

func (c *pieceCollector) flush() {
	if len(c.cur.s) > 0 {
		c.pieces = append(c.pieces, c.cur)
	}
	c.cur = piece{}
}

// foldsBeyondASCII reports whether some case variant of the ASCII rune r is
// not ASCII.
func foldsBeyondASCII(r rune) bool {
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// lineSafe rewrites re, in place, into an expression for finding candidate
// lines in a buffer of whole '\n'-terminated lines: it never matches '\n',
// so a match cannot run from one line into the next, and wherever re
// matches the text of a line (without its "\n" or "\r\n"), the rewritten
// expression matches the buffer at the same offset. Begin-of-text becomes
// begin-of-line, and end-of-text or end-of-line may first skip the '\r' of
// a "\r\n". The result may match more lines than re does.
func lineSafe(re *syntax.Regexp) {
	for _, sub := range re.Sub {
		lineSafe(sub)
	}
	switch re.Op {
	case syntax.OpAnyChar:
		re.Op = syntax.OpAnyCharNotNL
	case syntax.OpCharClass:
		if re.Rune = withoutNewline(re.Rune); len(re.Rune) == 0 {
			*re = syntax.Regexp{Op: syntax.OpNoMatch}
		}
	case syntax.OpLiteral:
		if slices.Contains(re.Rune, '\n') {
			*re = syntax.Regexp{Op: syntax.OpNoMatch}
		}
	case syntax.OpBeginText:
		re.Op = syntax.OpBeginLine
	case syntax.OpEndText, syntax.OpEndLine:
		*re = syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{
			{Op: syntax.OpQuest, Sub: []*syntax.Regexp{{Op: syntax.OpLiteral, Rune: []rune{'\r'}}}},
			{Op: syntax.OpEndLine},
		}}
	}
}

// withoutNewline removes '\n' from a character class given as sorted,
// non-overlapping [lo, hi] rune pairs.
func withoutNewline(ranges []rune) []rune {
	out := make([]rune, 0, len(ranges)+2)
	for i := 0; i < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo > '\n' || hi < '\n' {
			out = append(out, lo, hi)
			continue
		}
		if lo < '\n' {
			out = append(out, lo, '\n'-1)
		}
		if hi > '\n' {
			out = append(out, '\n'+1, hi)
		}
	}
	return out
}
