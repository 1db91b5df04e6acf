package main

import (
	"strconv"
	"unicode/utf8"
)

// shown renders a workspace name or path for a terminal: as it is when
// every character of it is printable, else quoted with Go's escapes
// ("a\nb", "\x1b[31m"), as ls -b and %q do, so that a name cannot forge
// output lines or send escape sequences to the terminal. --json output
// keeps the raw names.
func shown(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}
