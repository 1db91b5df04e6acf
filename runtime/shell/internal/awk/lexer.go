package awk

import (
	"fmt"
	"strings"
)

// tok is a token kind.
type tok int

const (
	tEOF tok = iota
	tNewline
	tLbrace
	tRbrace
	tLparen
	tRparen
	tLbracket
	tRbracket
	tSemi
	tComma
	tNumber
	tString
	tRegex
	tName
	tFuncName // a name followed at once by "("
	tBuiltin  // a built-in function name

	// operators
	tAdd
	tSub
	tMul
	tDiv
	tMod
	tPow
	tNot
	tGT
	tLT
	tGE
	tLE
	tEQ
	tNE
	tMatch
	tNoMatch
	tAnd
	tOr
	tQuestion
	tColon
	tDollar
	tIncr
	tDecr
	tAppend // >>
	tPipe
	tAssign
	tAddAssign
	tSubAssign
	tMulAssign
	tDivAssign
	tModAssign
	tPowAssign

	// keywords
	tBegin
	tEnd
	tFunction
	tIf
	tElse
	tWhile
	tFor
	tDo
	tBreak
	tContinue
	tNext
	tNextfile
	tExit
	tReturn
	tDelete
	tIn
	tGetline
	tPrint
	tPrintf
)

var keywords = map[string]tok{
	"BEGIN": tBegin, "END": tEnd, "function": tFunction, "func": tFunction,
	"if": tIf, "else": tElse, "while": tWhile, "for": tFor, "do": tDo,
	"break": tBreak, "continue": tContinue, "next": tNext, "nextfile": tNextfile,
	"exit": tExit, "return": tReturn, "delete": tDelete, "in": tIn,
	"getline": tGetline, "print": tPrint, "printf": tPrintf,
}

var builtinNames = map[string]bool{
	"length": true, "substr": true, "index": true, "split": true, "sub": true,
	"gsub": true, "match": true, "sprintf": true, "tolower": true, "toupper": true,
	"int": true, "sqrt": true, "exp": true, "log": true, "sin": true, "cos": true,
	"atan2": true, "rand": true, "srand": true, "system": true, "close": true,
	"fflush": true, "systime": true, "gensub": true, "strftime": true,
}

// token is one lexed token; val holds a name, a string's or regex's
// text, or a number's source.
type token struct {
	kind tok
	val  string
	num  float64
	line int
}

// lexer splits a program into tokens. It is a plain value, so the parser
// can save and restore it to look ahead.
type lexer struct {
	src  string
	pos  int
	line int
	// last is the previous token kind: a "/" after an operand is a
	// division, elsewhere it starts a regular expression.
	last tok
}

func newLexer(src string) lexer { return lexer{src: src, line: 1, last: tNewline} }

// ParseError is a syntax error in a program.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("syntax error at source line %d: %s", e.Line, e.Msg)
}

func (l *lexer) errorf(format string, args ...any) {
	panic(&ParseError{Line: l.line, Msg: fmt.Sprintf(format, args...)})
}

// divisionAllowed reports whether a "/" after the previous token is a
// division (the previous token ends an operand).
func (l *lexer) divisionAllowed() bool {
	switch l.last {
	case tNumber, tString, tName, tRparen, tRbracket, tDollar, tIncr, tDecr, tBuiltin, tRegex:
		return true
	}
	return false
}

func (l *lexer) next() token {
	t := l.scan()
	l.last = t.kind
	return t
}

func (l *lexer) scan() token {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
		case c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n':
			l.pos += 2
			l.line++
		case c == '\\' && l.pos+2 < len(l.src) && l.src[l.pos+1] == '\r' && l.src[l.pos+2] == '\n':
			l.pos += 3
			l.line++
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		default:
			return l.scanToken()
		}
	}
	return token{kind: tEOF, line: l.line}
}

func isAlpha(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (l *lexer) scanToken() token {
	start := l.pos
	c := l.src[l.pos]
	line := l.line
	mk := func(k tok, n int) token {
		l.pos += n
		return token{kind: k, val: l.src[start:l.pos], line: line}
	}
	peek := func(off int) byte {
		if l.pos+off < len(l.src) {
			return l.src[l.pos+off]
		}
		return 0
	}
	switch {
	case c == '\n':
		l.line++
		return mk(tNewline, 1)
	case isAlpha(c):
		for l.pos < len(l.src) && (isAlpha(l.src[l.pos]) || isDigit(l.src[l.pos])) {
			l.pos++
		}
		word := l.src[start:l.pos]
		if k, ok := keywords[word]; ok {
			return token{kind: k, val: word, line: line}
		}
		if builtinNames[word] {
			return token{kind: tBuiltin, val: word, line: line}
		}
		if l.pos < len(l.src) && l.src[l.pos] == '(' {
			return token{kind: tFuncName, val: word, line: line}
		}
		return token{kind: tName, val: word, line: line}
	case isDigit(c) || c == '.' && isDigit(peek(1)):
		return l.scanNumber()
	case c == '"':
		return l.scanString()
	case c == '/' && !l.divisionAllowed():
		return l.scanRegex()
	}
	two := ""
	if l.pos+1 < len(l.src) {
		two = l.src[l.pos : l.pos+2]
	}
	switch two {
	case "**":
		if peek(2) == '=' {
			return mk(tPowAssign, 3)
		}
		return mk(tPow, 2)
	case "+=":
		return mk(tAddAssign, 2)
	case "-=":
		return mk(tSubAssign, 2)
	case "*=":
		return mk(tMulAssign, 2)
	case "/=":
		return mk(tDivAssign, 2)
	case "%=":
		return mk(tModAssign, 2)
	case "^=":
		return mk(tPowAssign, 2)
	case "==":
		return mk(tEQ, 2)
	case "!=":
		return mk(tNE, 2)
	case "<=":
		return mk(tLE, 2)
	case ">=":
		return mk(tGE, 2)
	case "!~":
		return mk(tNoMatch, 2)
	case "&&":
		return mk(tAnd, 2)
	case "||":
		return mk(tOr, 2)
	case "++":
		return mk(tIncr, 2)
	case "--":
		return mk(tDecr, 2)
	case ">>":
		return mk(tAppend, 2)
	}
	switch c {
	case '{':
		return mk(tLbrace, 1)
	case '}':
		return mk(tRbrace, 1)
	case '(':
		return mk(tLparen, 1)
	case ')':
		return mk(tRparen, 1)
	case '[':
		return mk(tLbracket, 1)
	case ']':
		return mk(tRbracket, 1)
	case ';':
		return mk(tSemi, 1)
	case ',':
		return mk(tComma, 1)
	case '+':
		return mk(tAdd, 1)
	case '-':
		return mk(tSub, 1)
	case '*':
		return mk(tMul, 1)
	case '/':
		return mk(tDiv, 1)
	case '%':
		return mk(tMod, 1)
	case '^':
		return mk(tPow, 1)
	case '!':
		return mk(tNot, 1)
	case '>':
		return mk(tGT, 1)
	case '<':
		return mk(tLT, 1)
	case '|':
		return mk(tPipe, 1)
	case '?':
		return mk(tQuestion, 1)
	case ':':
		return mk(tColon, 1)
	case '$':
		return mk(tDollar, 1)
	case '=':
		return mk(tAssign, 1)
	case '~':
		return mk(tMatch, 1)
	}
	l.errorf("unexpected character %q", c)
	return token{}
}

func (l *lexer) scanNumber() token {
	start := l.pos
	s := l.src
	i := l.pos
	if s[i] == '0' && i+1 < len(s) && (s[i+1] == 'x' || s[i+1] == 'X') && i+2 < len(s) && isHex(s[i+2]) {
		i += 2
		for i < len(s) && isHex(s[i]) {
			i++
		}
		l.pos = i
		var v float64
		for _, c := range s[start+2 : i] {
			v = v*16 + float64(hexVal(byte(c)))
		}
		return token{kind: tNumber, val: s[start:i], num: v, line: l.line}
	}
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
		}
	}
	l.pos = i
	v, _ := strtod(s[start:i])
	// gawk reads a source constant with a leading 0 and only octal
	// digits as octal (017 is 15)
	if lit := s[start:i]; len(lit) > 1 && lit[0] == '0' && strings.Trim(lit, "01234567") == "" {
		v = 0
		for _, c := range lit {
			v = v*8 + float64(c-'0')
		}
	}
	return token{kind: tNumber, val: s[start:i], num: v, line: l.line}
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func hexVal(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

func (l *lexer) scanString() token {
	line := l.line
	l.pos++ // opening quote
	var b strings.Builder
	for {
		if l.pos >= len(l.src) || l.src[l.pos] == '\n' {
			l.errorf("unterminated string")
		}
		c := l.src[l.pos]
		if c == '"' {
			l.pos++
			break
		}
		if c == '\\' && l.pos+1 < len(l.src) {
			if l.src[l.pos+1] == '\n' {
				l.pos += 2
				l.line++
				continue
			}
			n := unescape(&b, l.src, l.pos+1)
			l.pos = n
			continue
		}
		b.WriteByte(c)
		l.pos++
	}
	return token{kind: tString, val: b.String(), line: line}
}

// unescape writes the escape sequence that starts at s[i] (after the
// backslash) to b and returns the index after it.
func unescape(b *strings.Builder, s string, i int) int {
	c := s[i]
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case '\\':
		b.WriteByte('\\')
	case '"':
		b.WriteByte('"')
	case '/':
		b.WriteByte('/')
	case 'a':
		b.WriteByte(7)
	case 'b':
		b.WriteByte(8)
	case 'f':
		b.WriteByte(12)
	case 'v':
		b.WriteByte(11)
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v, j := 0, i
		for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
			v = v*8 + int(s[j]-'0')
			j++
		}
		b.WriteByte(byte(v))
		return j
	default:
		// gawk keeps the backslash of an unknown escape
		b.WriteByte('\\')
		b.WriteByte(c)
	}
	return i + 1
}

// Unescape processes the escape sequences of a command-line assignment
// (-v var=value) or a -F separator.
func Unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '\\' && i+1 < len(s) {
			i = unescape(&b, s, i+1)
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

func (l *lexer) scanRegex() token {
	line := l.line
	l.pos++ // opening slash
	var b strings.Builder
	inBracket := false
	for {
		if l.pos >= len(l.src) || l.src[l.pos] == '\n' {
			l.errorf("unterminated regular expression")
		}
		c := l.src[l.pos]
		switch {
		case c == '\\' && l.pos+1 < len(l.src):
			if l.src[l.pos+1] == '/' {
				b.WriteByte('/')
			} else {
				b.WriteByte('\\')
				b.WriteByte(l.src[l.pos+1])
			}
			l.pos += 2
			continue
		case c == '[' && !inBracket:
			inBracket = true
			b.WriteByte(c)
			l.pos++
			// a "]" first in a bracket expression is literal
			if l.pos < len(l.src) && l.src[l.pos] == '^' {
				b.WriteByte('^')
				l.pos++
			}
			if l.pos < len(l.src) && l.src[l.pos] == ']' {
				b.WriteByte(']')
				l.pos++
			}
			continue
		case c == '[' && inBracket && l.pos+1 < len(l.src) && l.src[l.pos+1] == ':':
			end := strings.Index(l.src[l.pos:], ":]")
			if end > 0 && !strings.Contains(l.src[l.pos:l.pos+end], "\n") {
				b.WriteString(l.src[l.pos : l.pos+end+2])
				l.pos += end + 2
				continue
			}
		case c == ']' && inBracket:
			inBracket = false
		case c == '/' && !inBracket:
			l.pos++
			return token{kind: tRegex, val: b.String(), line: line}
		}
		b.WriteByte(c)
		l.pos++
	}
}
