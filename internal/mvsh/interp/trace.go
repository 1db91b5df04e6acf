package interp

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nookdev/nook/internal/mvsh/syntax"
)

// tracer prints expressions like a shell would do if its
// options '-o' is set to either 'xtrace' or its shorthand, '-x'.
type tracer struct {
	buf       bytes.Buffer
	printer   *syntax.Printer
	output    io.Writer
	needsPlus bool
}

func (r *Runner) tracer() *tracer {
	if !r.opts[optXTrace] {
		return nil
	}

	out := r.stderr
	if r.traceErr != nil {
		out = r.traceErr
	}
	return &tracer{
		printer:   syntax.NewPrinter(),
		output:    out,
		needsPlus: true,
	}
}

// string writes s to tracer.buf if tracer is non-nil,
// prepending "+" if tracer.needsPlus is true.
func (t *tracer) string(s string) {
	if t == nil {
		return
	}

	if t.needsPlus {
		t.buf.WriteString("+ ")
	}
	t.needsPlus = false
	t.buf.WriteString(s)
}

func (t *tracer) stringf(f string, a ...any) {
	if t == nil {
		return
	}

	t.string(fmt.Sprintf(f, a...))
}

// expr prints x to tracer.buf if tracer is non-nil,
// prepending "+" if tracer.isFirstPrint is true.
func (t *tracer) expr(x syntax.Node) {
	if t == nil {
		return
	}

	if t.needsPlus {
		t.buf.WriteString("+ ")
	}
	t.needsPlus = false
	if err := t.printer.Print(&t.buf, x); err != nil {
		panic(err)
	}
}

// flush writes the contents of tracer.buf to the tracer.stdout.
func (t *tracer) flush() {
	if t == nil {
		return
	}

	t.output.Write(t.buf.Bytes())
	t.buf.Reset()
}

// newLineFlush is like flush, but with extra new line before tracer.buf gets flushed.
func (t *tracer) newLineFlush() {
	if t == nil {
		return
	}

	t.buf.WriteString("\n")
	t.flush()
	// reset state
	t.needsPlus = true
}

// quoteBash quotes a string so that it can be traced as a single Bash word.
func quoteBash(s string) string {
	qs, err := syntax.Quote(s, syntax.LangBash)
	if err != nil { // should never happen
		panic(err)
	}
	return qs
}

// call prints a command and its arguments as bash's xtrace does: each
// word on its own, quoted only where bash would quote it (see
// [xtraceWord]).
func (t *tracer) call(cmd string, args ...string) {
	if t == nil {
		return
	}
	var b strings.Builder
	b.WriteString(xtraceWord(cmd))
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(xtraceWord(a))
	}
	t.string(b.String())
}

// xtraceWord quotes s as bash's xtrace prints a word (print_cmd.c): ”
// for an empty word, single quotes when it holds a shell metacharacter
// (a tilde or # only where they would expand or start a comment), $'...'
// when it holds an unprintable character, else s as it is.
func xtraceWord(s string) string {
	if s == "" {
		return "''"
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\t', '\n', '\'', '"', '\\', '|', '&', ';', '(', ')', '<', '>', '!', '{', '}', '*', '[', '?', ']', '^', '$', '`':
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		case '~':
			if i == 0 || s[i-1] == '=' || s[i-1] == ':' {
				return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
			}
		case '#':
			if i == 0 {
				return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
			}
		}
	}
	printable := true
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			printable = false
			break
		}
	}
	if printable {
		return s
	}
	var b strings.Builder
	b.WriteString("$'")
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, "\\%03o", s[0])
		case r == 0x1b:
			b.WriteString(`\E`)
		case r == '\a':
			b.WriteString(`\a`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\v':
			b.WriteString(`\v`)
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case !unicode.IsPrint(r) && r < 0x80:
			fmt.Fprintf(&b, "\\%03o", r)
		default:
			b.WriteString(s[:n])
		}
		s = s[n:]
	}
	b.WriteByte('\'')
	return b.String()
}

// xtraceValue is an assignment's value as xtrace prints it: as a word,
// but nothing at all for an empty value ("+ x=").
func xtraceValue(s string) string {
	if s == "" {
		return ""
	}
	return xtraceWord(s)
}
