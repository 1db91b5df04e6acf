package awk

import (
	"regexp"

	"github.com/nookdev/nook/runtime/shell/internal/posixre"
)

// maxRegexCache bounds the compiled dynamic regular expressions kept.
const maxRegexCache = 500

// regex compiles (and caches) an awk regular expression.
func (in *interp) regex(re string) *regexp.Regexp {
	if r, ok := in.regexes[re]; ok {
		return r
	}
	// A "." matches a newline and "^"/"$" anchor the whole string, as
	// in awk.
	s, err := posixre.Translate(re, posixre.AWK)
	if err != nil {
		in.fatalf("invalid regular expression /%s/: %v", re, err)
	}
	r := regexp.MustCompile("(?s)" + s)
	r.Longest()
	if len(in.regexes) >= maxRegexCache {
		clear(in.regexes)
	}
	in.regexes[re] = r
	return r
}
