package tools

import (
	"strconv"
	"unicode/utf8"
)

// DisplayName renders a workspace name or path for text a model or a
// terminal reads: as it is when every character of it is printable, else
// quoted with Go's escapes ("a\nb", "\x1b[31m"), as ls -b and %q do, so
// that a name cannot forge lines of a listing or send escape sequences to
// a terminal. Structured and JSON output keep the raw names.
func DisplayName(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// shown is DisplayName.
func shown(s string) string { return DisplayName(s) }

// shownAll applies shown to each of names.
func shownAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = shown(n)
	}
	return out
}
