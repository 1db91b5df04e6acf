package coreutils

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/nookdev/nook/runtime/shell/internal/posixre"
)

// compileRE compiles a POSIX regular expression (basic unless ere) with
// GNU extensions into Go's RE2 (see posixre): "^" and "$" match at each
// line's ends. Back references (\1 in a pattern) have no RE2 equivalent
// and are refused.
func compileRE(pat string, ere, icase bool) (*regexp.Regexp, error) {
	s, err := translateRE(pat, ere)
	if err != nil {
		return nil, err
	}
	if icase {
		s = "(?i)" + s
	}
	return regexp.Compile("(?m)" + s)
}

// translateRE translates a BRE (an ERE if ere) into RE2 syntax, without
// flags. A pattern RE2 refuses is "invalid regular expression 'PAT'".
func translateRE(pat string, ere bool) (string, error) {
	syn := posixre.BRE
	if ere {
		syn = posixre.ERE
	}
	s, err := posixre.Translate(pat, syn)
	if errors.Is(err, posixre.ErrRejected) {
		return "", fmt.Errorf("invalid regular expression '%s'", pat)
	}
	return s, err
}
