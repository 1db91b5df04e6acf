// nook: the text of an extended glob is expanded as bash expands it
// (see internal/mvsh/PATCHES.md).

package expand

import (
	"strings"

	"github.com/nookdev/nook/internal/mvsh/pattern"
	"github.com/nookdev/nook/internal/mvsh/syntax"
)

// extGlobParts expands the pattern list of an extended glob such as
// `@(a b|'_*'|$(echo x))`: the parser keeps it as raw text, so it is cut at
// its operators (`|`, parentheses, blanks and the other characters that
// end a word), and each piece between them is parsed and expanded as a
// word, its quoted parts staying quoted. Text that does not parse is kept
// as it is.
func (cfg *Config) extGlobParts(eg *syntax.ExtGlob) ([]fieldPart, error) {
	text := eg.Pattern.Value
	parts := []fieldPart{{val: eg.Op.String()}}
	start := 0
	piece := func(end int) error {
		if end <= start {
			return nil
		}
		seg := text[start:end]
		w, err := parseOneWord(seg)
		if err != nil {
			parts = append(parts, fieldPart{val: seg})
			return nil
		}
		f, err := cfg.wordField(w.Parts, quoteNone)
		if err != nil {
			return err
		}
		parts = append(parts, f...)
		return nil
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '\\':
			i++
		case '\'':
			if j := strings.IndexByte(text[i+1:], '\''); j >= 0 {
				i += j + 1
			}
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case '$', '`':
			i = skipExpansion(text, i)
		case '|', '(', ')', ' ', '\t', '\n', '<', '>', '&', ';':
			if err := piece(i); err != nil {
				return nil, err
			}
			parts = append(parts, fieldPart{val: string(c)})
			start = i + 1
		}
	}
	if err := piece(len(text)); err != nil {
		return nil, err
	}
	return append(parts, fieldPart{val: ")"}), nil
}

// skipExpansion returns the index of the last byte of the expansion that
// starts at text[i] (`$(...)`, `${...}`, `$((...))`, a backquoted command).
func skipExpansion(text string, i int) int {
	var open, close byte
	switch {
	case text[i] == '`':
		if j := strings.IndexByte(text[i+1:], '`'); j >= 0 {
			return i + j + 1
		}
		return i
	case i+1 < len(text) && text[i+1] == '(':
		open, close = '(', ')'
	case i+1 < len(text) && text[i+1] == '{':
		open, close = '{', '}'
	default:
		return i
	}
	depth := 0
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case open:
			depth++
		case close:
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return len(text) - 1
}

// parseOneWord parses s as exactly one shell word.
func parseOneWord(s string) (*syntax.Word, error) {
	f, err := syntax.NewParser().Parse(strings.NewReader(": "+s), "")
	if err != nil {
		return nil, err
	}
	if len(f.Stmts) != 1 {
		return nil, errNotOneWord
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) != 2 || len(call.Assigns) != 0 || len(f.Stmts[0].Redirs) != 0 {
		return nil, errNotOneWord
	}
	return call.Args[1], nil
}

type notOneWord struct{}

func (notOneWord) Error() string { return "not one word" }

var errNotOneWord error = notOneWord{}

// quoteMetaExt is [pattern.QuoteMeta]; with ext it also escapes the
// characters of extended globs, `|`, `(` and `)`, so that quoted text
// such as '__|' or '@(cc)' matches itself.
func quoteMetaExt(s string, ext bool) string {
	s = pattern.QuoteMeta(s, 0)
	if !ext || !strings.ContainsAny(s, "|()") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			b.WriteByte(s[i])
			i++
		case '|', '(', ')':
			b.WriteByte('\\')
		}
		if i < len(s) {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
