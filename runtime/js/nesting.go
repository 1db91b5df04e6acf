package js

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nookdev/nook/runtime/host"
)

// The parsers that see a program's source — esbuild while bundling, goja
// compiling the bundle, eval and the Function constructors — recurse on
// the Go stack once per level of nesting, and running out of Go stack is
// a fatal error no recover catches. So every source is measured first by
// sourceNesting, which does not recurse: a source deeper than
// MaxNestingDepth is refused before a parser sees it.
//
// The measure is an over-estimate of the parsers' recursion: the number
// of open brackets, braces, parentheses and template substitutions, plus,
// at each of those levels, the length of the current chain of operators
// (prefix and binary operators, member accesses, calls, indexing, `?`,
// `=>`, assignments, and the statement keywords if/else/while/for/with/
// do/return/throw), which is what nests without brackets (`!!!!x`,
// `a=b=c`, `a?b:c?d:e`, `if(a)if(b)`, else-if chains). A comma, a
// semicolon or the end of a statement (a block's closing brace not
// followed by else, or a line break where automatic semicolon insertion
// applies) ends a chain. Strings, comments, template text and regular
// expression literals are skipped; a `/` is a regular expression where an
// operand is expected (after an operator, a keyword such as return, `(`
// of if/while/for/with, or a block's `}`), and a division after an
// operand (a name, a literal, `)`, `]`, an object literal's or a function
// expression's `}`). TypeScript's `<` and `>` count as operators, so type
// nesting is measured too. JSX text is scanned as code (an apostrophe in
// it opens a string until the end of its line).

// level is one open bracket.
type level struct {
	kind  byte // '(' '[' '{' block, 'o' object literal, 'f' function or class expression body, 'c' if/while/for/with head, '$' template substitution
	chain int  // the enclosing level's chain when this one opened
	tern  int  // the enclosing level's unmatched '?'
	pend  bool // the enclosing level's pending function/class expression
}

type nestScanner struct {
	src    string
	i      int
	max    int
	levels []level
	total  int // len(levels) + the chains of every level
	chain  int // the innermost level's chain
	tern   int // unmatched '?' at the innermost level
	// Token context.
	regexOK  bool // a '/' here starts a regular expression
	stmt     bool // at the start of a statement
	pend     bool // a function or class expression's body is next at this level
	ctrl     bool // the next '(' is an if/while/for/with head
	arrow    bool // the last token was =>
	afterDot bool // the last token was . or ?.
	inCase   bool // between case/default and its ':'
	nl       bool // a line break since the last token
	blockEnd bool // the last token ended a statement (a block's '}', a ';')
	tok      int  // where the current token starts
	over     int  // where the depth first passed max, or -1
	peak     int  // the deepest measure seen
}

// sourceNesting returns the byte offset in src where the nesting measure
// first passes max, or -1.
func sourceNesting(src string, max int) int {
	s := &nestScanner{src: src, max: max, regexOK: true, stmt: true, over: -1}
	s.scan()
	return s.over
}

func (s *nestScanner) add(n int) {
	s.chain += n
	s.total += n
	s.mark()
}

func (s *nestScanner) mark() {
	if s.total > s.peak {
		s.peak = s.total
		if s.total > s.max && s.over < 0 {
			s.over = s.tok
		}
	}
}

func (s *nestScanner) push(kind byte) {
	s.levels = append(s.levels, level{kind: kind, chain: s.chain, tern: s.tern, pend: s.pend})
	s.chain, s.tern, s.pend = 0, 0, false
	s.total++
	s.mark()
}

// pop closes the innermost level if it is one of kinds and returns its
// kind, or 0 (an unmatched closer is ignored, which never lowers the
// measure).
func (s *nestScanner) pop(kinds string) byte {
	n := len(s.levels)
	if n == 0 || strings.IndexByte(kinds, s.levels[n-1].kind) < 0 {
		return 0
	}
	l := s.levels[n-1]
	s.levels = s.levels[:n-1]
	s.total -= 1 + s.chain
	s.chain, s.tern, s.pend = l.chain, l.tern, l.pend
	return l.kind
}

// endChain ends the innermost level's chain (a statement or a comma).
func (s *nestScanner) endChain() {
	s.total -= s.chain
	s.chain, s.tern = 0, 0
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c == '\\' || c == '#' || c >= 0x80 ||
		'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// lineBreak reports whether a line terminator starts at i, and its length.
func lineBreak(src string, i int) (bool, int) {
	switch src[i] {
	case '\n', '\r':
		return true, 1
	case 0xE2:
		if i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9) {
			return true, 3 // U+2028, U+2029
		}
	}
	return false, 0
}

// punctuators, longest first within each first byte.
var punctuators = [...]string{">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "%=", "&=", "|=", "^=",
	"**", "<<", ">>"}

func (s *nestScanner) scan() {
	src := s.src
	for s.i < len(src) && s.over < 0 {
		c := src[s.i]
		if c == ' ' || c == '\t' || c == '\v' || c == '\f' {
			s.i++
			continue
		}
		if br, n := lineBreak(src, s.i); br {
			s.nl = true
			s.i += n
			continue
		}
		if c >= 0x80 {
			r, n := utf8.DecodeRuneInString(src[s.i:])
			if unicode.IsSpace(r) || r == 0xFEFF {
				s.i += n
				continue
			}
		}
		if c == '/' && s.i+1 < len(src) && (src[s.i+1] == '/' || src[s.i+1] == '*') {
			s.comment()
			continue
		}
		s.token()
	}
}

func (s *nestScanner) comment() {
	src := s.src
	if src[s.i+1] == '/' {
		for s.i < len(src) {
			if br, _ := lineBreak(src, s.i); br {
				return
			}
			s.i++
		}
		return
	}
	end := strings.Index(src[s.i+2:], "*/")
	if end < 0 {
		s.i = len(src)
		return
	}
	body := src[s.i+2 : s.i+2+end]
	if strings.ContainsAny(body, "\n\r\u2028\u2029") {
		s.nl = true
	}
	s.i += end + 4
}

// continues reports whether a token starting with c (word: the token is a
// name) can continue the expression before a line break, so that no
// semicolon is inserted there.
func continues(c byte, word string) bool {
	if word != "" {
		return word == "in" || word == "instanceof" || word == "of" || word == "as" || word == "satisfies"
	}
	switch c {
	case '{', '!', '~', '\'', '"', '#', '@':
		return false
	}
	return !('0' <= c && c <= '9')
}

func (s *nestScanner) token() {
	src := s.src
	s.tok = s.i
	c := src[s.i]
	var word string
	if isIdentByte(c) && !('0' <= c && c <= '9') {
		j := s.i
		for j < len(src) && isIdentByte(src[j]) {
			if src[j] == '\\' {
				j++
			}
			j++
		}
		if j > len(src) {
			j = len(src)
		}
		word = src[s.i:j]
	}
	// Statement boundaries: a block's end not followed by else, or a line
	// break after an operand that the next token cannot continue.
	if s.blockEnd && word != "else" {
		s.endChain()
		s.stmt = true
	} else if s.nl && !s.regexOK && !continues(c, word) {
		s.endChain()
		s.stmt = true
	}
	s.blockEnd, s.nl = false, false
	arrow, afterDot := s.arrow, s.afterDot
	s.arrow, s.afterDot = false, false

	switch {
	case word != "":
		s.i += len(word)
		if afterDot {
			s.operand()
			return
		}
		s.word(word)
	case '0' <= c && c <= '9' || c == '.' && s.i+1 < len(src) && '0' <= src[s.i+1] && src[s.i+1] <= '9':
		for s.i < len(src) && (isIdentByte(src[s.i]) || src[s.i] == '.') {
			s.i++
		}
		s.operand()
	case c == '\'' || c == '"':
		s.i++
		for s.i < len(src) && src[s.i] != c {
			if src[s.i] == '\\' {
				s.i++
			} else if src[s.i] == '\n' || src[s.i] == '\r' {
				break // unterminated
			}
			s.i++
		}
		if s.i < len(src) && src[s.i] == c {
			s.i++
		}
		s.operand()
	case c == '`':
		s.i++
		s.template()
	case c == '/':
		if s.regexOK {
			s.regexp()
			s.operand()
			return
		}
		s.i++
		if s.i < len(src) && src[s.i] == '=' {
			s.i++
		}
		s.operator()
	case c == '(' || c == '[':
		if !s.regexOK {
			s.add(1) // a call or an index: one more link in the chain
		}
		kind := c
		if c == '(' && s.ctrl {
			kind = 'c'
		}
		s.ctrl = false
		s.i++
		s.push(kind)
		s.regexOK, s.stmt = true, false
	case c == '{':
		kind := byte('o')
		switch {
		case s.pend:
			kind, s.pend = 'f', false
		case arrow || s.stmt || !s.regexOK:
			kind = '{'
		}
		s.i++
		s.push(kind)
		s.regexOK, s.stmt = true, kind == '{'
	case c == ')':
		s.i++
		k := s.pop("(c")
		s.regexOK = k == 'c'
		s.stmt = k == 'c'
	case c == ']':
		s.i++
		s.pop("[")
		s.operand()
	case c == '}':
		s.i++
		switch s.pop("{of$") {
		case '{':
			s.regexOK, s.stmt, s.blockEnd = true, true, true
		case '$':
			s.template()
		default:
			s.operand()
		}
	case c == ';':
		s.i++
		s.regexOK, s.stmt, s.blockEnd = true, true, true // the chain ends unless else follows
	case c == ',':
		s.i++
		s.endChain()
		s.regexOK, s.stmt = true, false
	case c == ':':
		s.i++
		switch {
		case s.tern > 0:
			s.tern--
			s.stmt = false
		case len(s.levels) > 0 && s.levels[len(s.levels)-1].kind == 'o', s.inCase:
			s.stmt = s.inCase
		default:
			s.add(1) // a label
			s.stmt = true
		}
		s.inCase = false
		s.regexOK = true
	default:
		p := string(c)
		for _, q := range punctuators {
			if strings.HasPrefix(src[s.i:], q) {
				p = q
				break
			}
		}
		if p == "?." && s.i+2 < len(src) && '0' <= src[s.i+2] && src[s.i+2] <= '9' {
			p = "?" // a ? .5 : b
		}
		s.i += len(p)
		switch p {
		case "?":
			s.tern++
		case ".", "?.":
			s.add(1)
			s.afterDot = true
			s.regexOK, s.stmt = false, false
			return
		case "=>":
			s.arrow = true
		case "++", "--":
			s.add(1)
			s.regexOK, s.stmt = false, false
			return
		}
		s.operator()
	}
}

// operand ends a token after which a '/' divides.
func (s *nestScanner) operand() {
	s.regexOK, s.stmt = false, false
}

// operator ends an operator token: one more link in the chain.
func (s *nestScanner) operator() {
	s.add(1)
	s.regexOK, s.stmt = true, false
}

func (s *nestScanner) word(w string) {
	switch w {
	case "if", "while", "for", "with":
		s.add(1)
		s.ctrl = true
		s.regexOK, s.stmt = true, false
	case "else", "do":
		s.add(1)
		s.regexOK, s.stmt = true, true
	case "try", "finally":
		s.regexOK, s.stmt = true, true
	case "return", "throw", "typeof", "instanceof", "in", "of", "new", "delete", "void", "yield", "await":
		s.add(1)
		s.regexOK, s.stmt = true, false
	case "case", "default":
		s.inCase = true
		s.regexOK, s.stmt = true, false
	case "extends":
		s.regexOK, s.stmt = true, false
	case "function", "class":
		if s.regexOK && !s.stmt {
			s.pend = true
		}
		s.regexOK, s.stmt = false, false
	case "async":
		// async function / async (a) => ...: the context is unchanged.
	default:
		s.operand()
	}
}

// template scans template text up to the closing backquote or the next
// substitution, which it opens.
func (s *nestScanner) template() {
	src := s.src
	for s.i < len(src) {
		switch src[s.i] {
		case '\\':
			s.i += 2
			continue
		case '`':
			s.i++
			s.operand()
			return
		case '$':
			if s.i+1 < len(src) && src[s.i+1] == '{' {
				s.tok = s.i
				s.i += 2
				s.push('$')
				s.regexOK, s.stmt = true, false
				return
			}
		}
		s.i++
	}
}

// regexp skips a regular expression literal and its flags.
func (s *nestScanner) regexp() {
	src := s.src
	s.i++
	class := false
	for s.i < len(src) {
		if br, _ := lineBreak(src, s.i); br {
			return // unterminated
		}
		switch src[s.i] {
		case '\\':
			s.i++
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				s.i++
				for s.i < len(src) && isIdentByte(src[s.i]) {
					s.i++
				}
				return
			}
		}
		s.i++
	}
}

// checkSource returns a *runtime.LimitError naming MaxNestingDepth when
// src (named name in the message) nests deeper than max.
func checkSource(name, src string, max int) error {
	at := sourceNesting(src, max)
	if at < 0 {
		return nil
	}
	line := 1 + strings.Count(src[:at], "\n")
	col := at - strings.LastIndexByte(src[:at], '\n')
	return &host.LimitError{Limit: "MaxNestingDepth", Max: int64(max),
		What: fmt.Sprintf("%s nested deeper than %d levels (at %d:%d)", name, max, line, col)}
}
