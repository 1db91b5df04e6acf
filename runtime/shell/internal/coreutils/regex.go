package coreutils

import (
	"fmt"
	"regexp"
	"strings"
)

// compileRE compiles a POSIX regular expression (basic unless ere) with
// GNU extensions into Go's RE2: in a BRE, \( \) \{ \} \| \+ \? are the
// operators and ( ) { } | + ? are literal; \< and \> become \b. Back
// references (\1 in a pattern) have no RE2 equivalent and are refused.
func compileRE(pat string, ere, icase bool) (*regexp.Regexp, error) {
	s, err := translateRE(pat, ere)
	if err != nil {
		return nil, err
	}
	if icase {
		s = "(?i)" + s
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression '%s'", pat)
	}
	return re, nil
}

func translateRE(p string, ere bool) (string, error) {
	var b strings.Builder
	b.WriteString("(?m)")
	atStart := true
	for i := 0; i < len(p); i++ {
		c := p[i]
		start := atStart
		atStart = false
		switch {
		case c == '\\' && i+1 < len(p):
			i++
			n := p[i]
			switch {
			case n == '<' || n == '>':
				b.WriteString(`\b`)
			case n >= '1' && n <= '9':
				return "", fmt.Errorf("back-references (\\%c) are not supported", n)
			case !ere && strings.IndexByte("(){}|+?", n) >= 0:
				b.WriteByte(n)
				if n == '(' || n == '|' {
					atStart = true
				}
			case ere && strings.IndexByte("(){}|+?", n) >= 0:
				b.WriteByte('\\')
				b.WriteByte(n)
			case strings.IndexByte("wWsSbB", n) >= 0:
				b.WriteByte('\\')
				b.WriteByte(n)
			case n == 'n':
				b.WriteString(`\n`)
			case n == 't':
				b.WriteString(`\t`)
			case n == '`':
				b.WriteString(`\A`)
			case n == '\'':
				b.WriteString(`\z`)
			default:
				b.WriteString(regexp.QuoteMeta(string(n)))
			}
		case c == '[':
			j := i + 1
			if j < len(p) && p[j] == '^' {
				j++
			}
			if j < len(p) && p[j] == ']' {
				j++
			}
			for j < len(p) && p[j] != ']' {
				if p[j] == '[' && j+1 < len(p) && (p[j+1] == ':' || p[j+1] == '=' || p[j+1] == '.') {
					k := strings.Index(p[j+2:], string(p[j+1])+"]")
					if k >= 0 {
						j += k + 4
						continue
					}
				}
				j++
			}
			if j >= len(p) {
				return "", fmt.Errorf("unmatched [")
			}
			set := p[i+1 : j]
			// a backslash is literal inside a POSIX bracket expression
			set = strings.ReplaceAll(set, `\`, `\\`)
			if strings.HasPrefix(set, "^]") {
				set = `^\]` + set[2:]
			} else if strings.HasPrefix(set, "]") {
				set = `\]` + set[1:]
			}
			set = strings.ReplaceAll(set, "[", `\[`)
			for _, cl := range []string{"alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "print", "graph", "cntrl", "xdigit"} {
				set = strings.ReplaceAll(set, `\[:`+cl+`:]`, "[:"+cl+":]")
			}
			b.WriteString("[" + set + "]")
			i = j
		case c == '*' && start:
			b.WriteString(`\*`)
		case !ere && strings.IndexByte("(){}|+?", c) >= 0:
			b.WriteString(regexp.QuoteMeta(string(c)))
		case ere && c == '{' && !validInterval(p[i:]):
			b.WriteString(`\{`)
		case ere && (c == '(' || c == '|'):
			b.WriteByte(c)
			atStart = true
		case c == '^':
			b.WriteByte(c)
			atStart = true
		case c == '.' || c == '$' || c == '*' || ere && strings.IndexByte("(){}|+?", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String(), nil
}

func validInterval(s string) bool {
	end := strings.IndexByte(s, '}')
	if end < 0 {
		return false
	}
	body := s[1:end]
	if body == "" {
		return false
	}
	for _, r := range body {
		if (r < '0' || r > '9') && r != ',' {
			return false
		}
	}
	return true
}
