// Package posixre translates POSIX regular expressions, basic (BRE) and
// extended (ERE) with the GNU extensions, and awk's dialect of ERE, into
// the RE2 syntax of Go's regexp package. grep, sed, expr and find
// (runtime/shell/internal/coreutils) and awk (runtime/shell/internal/awk)
// all use it.
//
// What differs from RE2 and is translated: in a BRE, \( \) \{ \} \| \+ \?
// are the operators and ( ) { } | + ? literal; a "*" (and in an ERE "+"
// and "?") where nothing precedes it to repeat is literal; in a BRE "^"
// anchors only at the start (or after \( or \|) and "$" only at the end
// (or before \) or \|); "{" that does not start a valid interval is
// literal and "{,n}" means "{0,n}"; "a**" and "a+?" are one repetition
// (POSIX has no lazy operators); inside a bracket expression a backslash
// is literal (awk: an escape), "[:class:]" is a character class and
// "[=c=]", "[.c.]" the character c. \< \> (and awk's \y) are word
// boundaries, \` and \' the ends of the text.
//
// Flags are the caller's: awk wants "(?s)" (a "." matches a newline),
// the line-oriented tools "(?m)".
package posixre

import (
	"errors"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// Syntax is a dialect of POSIX regular expressions.
type Syntax int

const (
	// BRE is a POSIX basic regular expression with GNU's extensions
	// (grep, sed, expr, find -regex).
	BRE Syntax = iota
	// ERE is a POSIX extended regular expression with GNU's extensions
	// (grep -E, sed -E).
	ERE
	// AWK is awk's ERE (gawk): escapes \n \t \r \f \v \a \/ \" and \y
	// work inside and outside bracket expressions, \1 is a literal 1.
	AWK
)

// ErrRejected is wrapped by the errors of patterns that translate but
// that RE2 does not accept (a repetition count over 1000, a range z-a,
// a repeated interval).
var ErrRejected = errors.New("rejected by RE2")

// Error is a pattern that cannot be translated.
type Error struct {
	Pattern string // the POSIX pattern
	Msg     string // what is wrong, in GNU grep's words (`Unmatched \{`)
	err     error
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns ErrRejected for a pattern RE2 refused, else nil.
func (e *Error) Unwrap() error { return e.err }

// classes are the POSIX character class names, all of which RE2 knows.
var classes = map[string]bool{
	"alpha": true, "digit": true, "alnum": true, "upper": true, "lower": true, "space": true,
	"blank": true, "punct": true, "print": true, "graph": true, "cntrl": true, "xdigit": true,
}

// Translate returns pattern, in the given syntax, as an RE2 expression
// that regexp.Compile accepts, or an *Error saying why it cannot.
func Translate(pattern string, syn Syntax) (string, error) {
	t := &translator{p: pattern, syn: syn, ere: syn != BRE, awk: syn == AWK}
	out, err := t.run()
	if err != nil {
		return "", err
	}
	if _, perr := syntax.Parse(out, syntax.Perl); perr != nil {
		msg := strings.TrimPrefix(perr.Error(), "error parsing regexp: ")
		return "", &Error{Pattern: pattern, Msg: msg, err: ErrRejected}
	}
	return out, nil
}

type translator struct {
	p        string
	syn      Syntax
	ere, awk bool
	b        strings.Builder
	// lastRep is the repetition operator just written ('*', '+' or '?'),
	// 0 after anything else.
	lastRep byte
}

func (t *translator) fail(msg string) error { return &Error{Pattern: t.p, Msg: msg} }

func (t *translator) write(s string) {
	t.b.WriteString(s)
	t.lastRep = 0
}

// repeat writes a repetition operator, folding it into one just written:
// POSIX "a**" is "a*", "a+?" is "(a+)?", that is "a*".
func (t *translator) repeat(op byte) {
	if t.lastRep != 0 {
		s := t.b.String()
		if t.lastRep != op {
			op = '*'
		}
		t.b.Reset()
		t.b.WriteString(s[:len(s)-1])
	}
	t.b.WriteByte(op)
	t.lastRep = op
}

// literal writes the character at p[i:] quoted, and returns its length.
// A byte that is not UTF-8 becomes U+FFFD, which is how Go's regexp sees
// such a byte of the text.
func (t *translator) literal(i int) int {
	r, n := utf8.DecodeRuneInString(t.p[i:])
	if r == utf8.RuneError && n <= 1 {
		t.write(`\x{fffd}`)
		return 1
	}
	if n == 1 && strings.IndexByte(`\.+*?()|[]{}^$`, t.p[i]) >= 0 {
		t.write(`\` + t.p[i:i+1])
	} else {
		t.write(t.p[i : i+n])
	}
	return n
}

func (t *translator) run() (string, error) {
	p := t.p
	atStart := true // where "*" has nothing to repeat
	for i := 0; i < len(p); {
		c := p[i]
		start := atStart
		atStart = false
		switch {
		case c == '\\':
			if i+1 == len(p) {
				t.write(`\\`) // a trailing backslash is literal
				i++
				continue
			}
			n, err := t.escape(i+1, start, &atStart)
			if err != nil {
				return "", err
			}
			i += 1 + n
			continue
		case c == '[':
			n, err := t.bracket(i)
			if err != nil {
				return "", err
			}
			i += n
			continue
		case c == '*' && start, t.ere && (c == '+' || c == '?') && start:
			t.write(`\` + string(c))
		case c == '*', t.ere && (c == '+' || c == '?'):
			t.repeat(c)
		case c == '{' && t.ere:
			if n, iv := interval(p[i+1:], "}"); n > 0 && !start {
				t.write(iv)
				i += 1 + n
				continue
			}
			t.write(`\{`)
		case t.ere && (c == '(' || c == '|'):
			t.write(string(c))
			atStart = true
		case t.ere && c == ')':
			t.write(")")
		case c == '^':
			if t.ere || start {
				t.write("^")
				atStart = true
			} else {
				t.write(`\^`)
			}
		case c == '$':
			if t.ere || i == len(p)-1 || strings.HasPrefix(p[i+1:], `\)`) || strings.HasPrefix(p[i+1:], `\|`) {
				t.write("$")
			} else {
				t.write(`\$`)
			}
		case c == '.':
			t.write(".")
		default:
			i += t.literal(i)
			continue
		}
		i++
	}
	return t.b.String(), nil
}

// escape translates the backslash escape whose character is at p[i] and
// returns the bytes it used.
func (t *translator) escape(i int, start bool, atStart *bool) (int, error) {
	n := t.p[i]
	switch {
	case n == '<' || n == '>' || t.awk && n == 'y' || !t.awk && n == 'b':
		t.write(`\b`)
	case strings.IndexByte("BwWsS", n) >= 0:
		t.write(`\` + string(n))
	case n == '`':
		t.write(`\A`)
	case n == '\'':
		t.write(`\z`)
	case n == 'n':
		t.write(`\n`)
	case n == 't':
		t.write(`\t`)
	case t.awk && strings.IndexByte("rfva", n) >= 0:
		t.write(map[byte]string{'r': `\r`, 'f': `\f`, 'v': `\v`, 'a': `\x07`}[n])
	case !t.awk && n >= '1' && n <= '9':
		return 0, t.fail(`back-references (\` + string(n) + `) are not supported`)
	case t.syn == BRE && (n == '(' || n == '|'):
		t.write(string(n))
		*atStart = true
	case t.syn == BRE && n == ')':
		t.write(")")
	case t.syn == BRE && (n == '+' || n == '?'):
		if start {
			t.write(`\` + string(n))
		} else {
			t.repeat(n)
		}
	case t.syn == BRE && n == '{':
		if start {
			t.write(`\{`)
			break
		}
		if !strings.Contains(t.p[i+1:], `\}`) {
			return 0, t.fail(`Unmatched \{`)
		}
		m, iv := interval(t.p[i+1:], `\}`)
		if m == 0 {
			return 0, t.fail(`Invalid content of \{\}`)
		}
		t.write(iv)
		return 1 + m, nil
	default:
		return t.literal(i), nil
	}
	return 1, nil
}

// interval reads the body of an interval up to its closing delimiter
// ("}" or `\}`) at the start of s: "2", "2,", "2,5" or ",5". It returns
// the bytes used, delimiter included, and the RE2 interval, or 0 when s
// does not start with one.
func interval(s, close string) (int, string) {
	end := strings.Index(s, close)
	if end < 0 {
		return 0, ""
	}
	body := s[:end]
	lo, hi, comma := strings.Cut(body, ",")
	digits := func(x string) bool {
		for i := 0; i < len(x); i++ {
			if x[i] < '0' || x[i] > '9' {
				return false
			}
		}
		return true
	}
	if !digits(lo) || !digits(hi) || lo == "" && (!comma || hi == "") {
		return 0, ""
	}
	if lo == "" {
		lo = "0"
	}
	if comma {
		return end + len(close), "{" + lo + "," + hi + "}"
	}
	return end + len(close), "{" + lo + "}"
}

// bracket translates the bracket expression starting at p[i] ("[") and
// returns its length.
func (t *translator) bracket(i int) (int, error) {
	p := t.p
	var b strings.Builder
	b.WriteByte('[')
	j := i + 1
	if j < len(p) && p[j] == '^' {
		b.WriteByte('^')
		j++
	}
	for first := true; ; first = false {
		if j >= len(p) {
			return 0, t.fail("Unmatched [, [^, [:, [., or [=")
		}
		c := p[j]
		switch {
		case c == ']' && !first:
			b.WriteByte(']')
			t.write(b.String())
			return j + 1 - i, nil
		case c == '[' && j+1 < len(p) && (p[j+1] == ':' || p[j+1] == '.' || p[j+1] == '='):
			kind := p[j+1]
			end := strings.Index(p[j+2:], string(kind)+"]")
			if end < 0 {
				return 0, t.fail("Unmatched [, [^, [:, [., or [=")
			}
			name := p[j+2 : j+2+end]
			if kind == ':' {
				if !classes[name] {
					return 0, t.fail("Invalid character class name")
				}
				b.WriteString("[:" + name + ":]")
			} else {
				// a collating element or equivalence class: the one
				// character it names
				if r, n := utf8.DecodeRuneInString(name); n == 0 || n != len(name) || r == utf8.RuneError {
					return 0, t.fail("Invalid collation character")
				}
				classChar(&b, name)
			}
			j += 2 + end + 2
			continue
		case c == '\\' && t.awk && j+1 < len(p):
			j++
			switch e := p[j]; {
			case strings.IndexByte("ntrfva", e) >= 0:
				b.WriteString(map[byte]string{'n': `\n`, 't': `\t`, 'r': `\r`, 'f': `\f`, 'v': `\v`, 'a': `\x07`}[e])
			case e < utf8.RuneSelf && (e >= 'a' && e <= 'z' || e >= 'A' && e <= 'Z' || e >= '0' && e <= '9'):
				b.WriteByte(e)
			default:
				r, n := utf8.DecodeRuneInString(p[j:])
				classChar(&b, string(r))
				j += n
				continue
			}
		default:
			r, n := utf8.DecodeRuneInString(p[j:])
			if r == utf8.RuneError && n <= 1 {
				b.WriteString(`\x{fffd}`)
			} else {
				classChar(&b, p[j:j+n])
			}
			j += n
			continue
		}
		j++
	}
}

// classChar writes one character inside an RE2 class, escaped when RE2
// would read it otherwise.
func classChar(b *strings.Builder, s string) {
	if len(s) == 1 && strings.IndexByte(`\[]`, s[0]) >= 0 {
		b.WriteByte('\\')
	}
	b.WriteString(s)
}
