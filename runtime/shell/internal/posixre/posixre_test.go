package posixre

import (
	"errors"
	"regexp"
	"testing"
)

func TestTranslate(t *testing.T) {
	tests := []struct {
		syn      Syntax
		in, want string
	}{
		// BRE: the backslashed forms are the operators
		{BRE, `a\(b\|c\)\{2\}`, `a(b|c){2}`},
		{BRE, `(a|b){2}+?`, `\(a\|b\)\{2\}\+\?`},
		{BRE, `a\+b\?`, `a+b?`},
		{BRE, `a\{,3\}`, `a{0,3}`},
		{BRE, `a\{2,\}`, `a{2,}`},
		{BRE, `*a`, `\*a`},
		{BRE, `^*a`, `^\*a`},
		{BRE, `\(*a\)`, `(\*a)`},
		{BRE, `a^b$c`, `a\^b\$c`},
		{BRE, `\(^a$\)`, `(^a$)`},
		{BRE, `^a$`, `^a$`},
		{BRE, `\{1\}`, `\{1\}`},
		{BRE, `a**`, `a*`},
		{BRE, `\<w\>\bx\By`, `\bw\b\bx\By`},
		{BRE, "\\`a\\'", `\Aa\z`},
		{BRE, `\y\.\*`, `y\.\*`},
		{BRE, `a\`, `a\\`},
		// ERE
		{ERE, `(a|b)+?`, `(a|b)*`},
		{ERE, `\(\)\{\}\|\+\?`, `\(\)\{\}\|\+\?`},
		{ERE, `a{,2}b{3}c{1,}`, `a{0,2}b{3}c{1,}`},
		{ERE, `a{x}b{}c{`, `a\{x\}b\{\}c\{`},
		{ERE, `{1}a`, `\{1\}a`},
		{ERE, `+a|?b|*c`, `\+a|\?b|\*c`},
		{ERE, `a+*`, `a*`},
		{ERE, `a++`, `a+`},
		{ERE, `a^b$c`, `a^b$c`},
		// bracket expressions
		{ERE, `[]a]`, `[\]a]`},
		{ERE, `[^]a]`, `[^\]a]`},
		{ERE, `[a\]`, `[a\\]`},
		{ERE, `[[:alpha:][:digit:]_]`, `[[:alpha:][:digit:]_]`},
		{ERE, `[^[:space:]]`, `[^[:space:]]`},
		{ERE, `[[=e=][.-.]x]`, `[e-x]`},
		{ERE, `[a[b]`, `[a\[b]`},
		{ERE, `[é-ü]`, `[é-ü]`},
		{BRE, `[.*^$]`, `[.*^$]`},
		// awk
		{AWK, `\y\<a\>`, `\b\ba\b`},
		{AWK, `\n\t\r\f\v\a\/\"\b`, `\n\t\r\f\v\x07/"b`},
		{AWK, `\1`, `1`},
		{AWK, `[\]\n\t\\a-]`, `[\]\n\t\\a-]`},
		{AWK, `[\q]`, `[q]`},
		{AWK, `{2}a{2}`, `\{2\}a{2}`},
		{AWK, `a}`, `a\}`},
		// bytes that are not UTF-8 match as U+FFFD
		{ERE, "a\xff[\xfe]", `a\x{fffd}[\x{fffd}]`},
	}
	for _, tc := range tests {
		got, err := Translate(tc.in, tc.syn)
		if err != nil || got != tc.want {
			t.Errorf("Translate(%q, %d) = %q, %v; want %q", tc.in, tc.syn, got, err, tc.want)
		}
	}
}

func TestTranslateErrors(t *testing.T) {
	tests := []struct {
		syn      Syntax
		in, want string
		rejected bool
	}{
		{BRE, `[abc`, "Unmatched [, [^, [:, [., or [=", false},
		{ERE, `[[:alpha:]`, "Unmatched [, [^, [:, [., or [=", false},
		{ERE, `[[:alpha]]`, "Unmatched [, [^, [:, [., or [=", false},
		{ERE, `[[:foo:]]`, "Invalid character class name", false},
		{ERE, `[[=ab=]]`, "Invalid collation character", false},
		{BRE, `x\{1`, `Unmatched \{`, false},
		{BRE, `x\{a\}`, `Invalid content of \{\}`, false},
		{BRE, `\(a\)\1`, `back-references (\1) are not supported`, false},
		{ERE, `(a)\2`, `back-references (\2) are not supported`, false},
		{ERE, `a{1001}`, "invalid repeat count: `{1001}`", true},
		{ERE, `a{2}*`, "invalid nested repetition operator: `{2}*`", true},
		{ERE, `[z-a]`, "invalid character class range: `z-a`", true},
		{ERE, `(a`, "missing closing ): `(a`", true},
		{AWK, `a)`, "unexpected ): `a)`", true},
	}
	for _, tc := range tests {
		got, err := Translate(tc.in, tc.syn)
		var pe *Error
		if !errors.As(err, &pe) || pe.Msg != tc.want || pe.Pattern != tc.in || errors.Is(err, ErrRejected) != tc.rejected {
			t.Errorf("Translate(%q, %d) = %q, %v; want error %q (rejected by RE2: %v)", tc.in, tc.syn, got, err, tc.want, tc.rejected)
		}
	}
}

// TestMatches checks what translated patterns match, against what GNU
// grep and sed match.
func TestMatches(t *testing.T) {
	tests := []struct {
		syn       Syntax
		pat, text string
		want      string // the leftmost-longest match, "-" for none
	}{
		{BRE, `a\{2\}`, "caaat", "aa"},
		{BRE, `x*`, "*x", ""},
		{BRE, `^*x`, "*x", "*x"},
		{BRE, `$HOME`, "a$HOME", "$HOME"},
		{BRE, `a|b`, "a|b", "a|b"},
		{ERE, `a|b`, "xb", "b"},
		{ERE, `[[:upper:]]+`, "abCDe", "CD"},
		{ERE, `[]x]+`, "a]x]b", "]x]"},
		{ERE, `a{,2}`, "aaa", "aa"},
		{AWK, `[\/]`, "a/b", "/"},
		{BRE, `[\n]`, `a\b`, `\`},
		{AWK, `[\n]`, "a\nb", "\n"},
	}
	for _, tc := range tests {
		s, err := Translate(tc.pat, tc.syn)
		if err != nil {
			t.Errorf("Translate(%q): %v", tc.pat, err)
			continue
		}
		re := regexp.MustCompile(s)
		re.Longest()
		got := "-"
		if loc := re.FindStringIndex(tc.text); loc != nil {
			got = tc.text[loc[0]:loc[1]]
		}
		if got != tc.want {
			t.Errorf("%q (%s) on %q matched %q, want %q", tc.pat, s, tc.text, got, tc.want)
		}
	}
}

// FuzzTranslate: Translate never panics, and what it returns compiles;
// otherwise it says why with an *Error.
func FuzzTranslate(f *testing.F) {
	for _, s := range []string{`a\(b\)*\{1,2\}`, `[[:alpha:]]+|x{2,}`, `[]^-]`, `\y\<x\>`, `[\`, `a\{`, `[[.`, "\xff[\xfe-\xff]", `{,}`, `a**+?{1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, pat string) {
		for _, syn := range []Syntax{BRE, ERE, AWK} {
			s, err := Translate(pat, syn)
			if err != nil {
				var pe *Error
				if !errors.As(err, &pe) || pe.Msg == "" || s != "" {
					t.Fatalf("Translate(%q, %d) = %q, %v: not a clear error", pat, syn, s, err)
				}
				continue
			}
			if _, err := regexp.Compile(s); err != nil {
				t.Fatalf("Translate(%q, %d) = %q, which does not compile: %v", pat, syn, s, err)
			}
		}
	})
}
