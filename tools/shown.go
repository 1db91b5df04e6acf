package tools

import (
	"strconv"
	"unicode/utf8"
)

// shown renders a workspace name or path for a tool's text output: as it
// is when every character of it is printable, else quoted with Go's
// escapes ("a\nb", "\x1b[31m"), as ls -b and %q do, so that a name cannot
// forge lines of a listing. Structured output keeps the raw names.
func shown(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// shownAll applies shown to each of names.
func shownAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = shown(n)
	}
	return out
}
