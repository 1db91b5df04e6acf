package awk

import (
	"regexp"
	"strings"
)

// translateRE turns an awk (POSIX ERE, with gawk's \y \< \> \s \w
// extensions) regular expression into Go RE2 syntax. A "." matches a
// newline and "^"/"$" anchor the whole string, as in awk.
func translateRE(re string) string {
	var b strings.Builder
	b.WriteString("(?s)")
	for i := 0; i < len(re); i++ {
		c := re[i]
		switch c {
		case '\\':
			if i+1 >= len(re) {
				b.WriteString(`\\`)
				continue
			}
			i++
			n := re[i]
			switch n {
			case 'y', '<', '>':
				b.WriteString(`\b`)
			case 'B', 's', 'S', 'w', 'W':
				b.WriteByte('\\')
				b.WriteByte(n)
			case 'n':
				b.WriteString(`\n`)
			case 't':
				b.WriteString(`\t`)
			case 'r':
				b.WriteString(`\r`)
			case 'f':
				b.WriteString(`\f`)
			case 'v':
				b.WriteString(`\v`)
			case 'a':
				b.WriteString(`\x07`)
			case '`':
				b.WriteString(`\A`)
			case '\'':
				b.WriteString(`\z`)
			case '/', '"':
				b.WriteByte(n)
			default:
				b.WriteString(regexp.QuoteMeta(string(n)))
			}
		case '[':
			j := i + 1
			b.WriteByte('[')
			if j < len(re) && re[j] == '^' {
				b.WriteByte('^')
				j++
			}
			if j < len(re) && re[j] == ']' {
				b.WriteString(`\]`)
				j++
			}
			for ; j < len(re) && re[j] != ']'; j++ {
				switch {
				case re[j] == '[' && j+1 < len(re) && (re[j+1] == ':' || re[j+1] == '.' || re[j+1] == '='):
					end := strings.Index(re[j+2:], string(re[j+1])+"]")
					if end < 0 {
						b.WriteString(`\[`)
						continue
					}
					if re[j+1] == ':' {
						b.WriteString(re[j : j+2+end+2])
					} else {
						// collating elements and equivalence classes: the
						// character itself
						b.WriteString(regexp.QuoteMeta(re[j+2 : j+2+end]))
					}
					j += 2 + end + 1
				case re[j] == '\\' && j+1 < len(re):
					j++
					switch re[j] {
					case 'n':
						b.WriteString(`\n`)
					case 't':
						b.WriteString(`\t`)
					case 'r':
						b.WriteString(`\r`)
					default:
						if isAlpha(re[j]) || isDigit(re[j]) {
							b.WriteByte(re[j])
						} else {
							b.WriteByte('\\')
							b.WriteByte(re[j])
						}
					}
				case re[j] == '[':
					b.WriteString(`\[`)
				default:
					b.WriteByte(re[j])
				}
			}
			if j >= len(re) {
				// no closing bracket: RE2 reports the error
				return b.String()
			}
			b.WriteByte(']')
			i = j
		case '{':
			// an interval only when it is one (a{2}, a{2,}, a{2,3});
			// otherwise a literal brace
			end := strings.IndexByte(re[i:], '}')
			if end > 1 && validInterval(re[i+1:i+end]) && i > 0 {
				b.WriteString(re[i : i+end+1])
				i += end
			} else {
				b.WriteString(`\{`)
			}
		case '}':
			b.WriteString(`\}`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func validInterval(s string) bool {
	lo, hi, comma := strings.Cut(s, ",")
	if lo == "" {
		return false
	}
	for _, p := range []string{lo, hi} {
		for i := 0; i < len(p); i++ {
			if !isDigit(p[i]) {
				return false
			}
		}
	}
	_ = comma
	return true
}

// maxRegexCache bounds the compiled dynamic regular expressions kept.
const maxRegexCache = 500

// regex compiles (and caches) an awk regular expression.
func (in *interp) regex(re string) *regexp.Regexp {
	if r, ok := in.regexes[re]; ok {
		return r
	}
	r, err := regexp.Compile(translateRE(re))
	if err != nil {
		in.fatalf("invalid regular expression /%s/: %v", re, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	r.Longest()
	if len(in.regexes) >= maxRegexCache {
		clear(in.regexes)
	}
	in.regexes[re] = r
	return r
}
