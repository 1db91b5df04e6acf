package git

import (
	"strings"

	"github.com/nookdev/nook/internal/linediff"
)

// countChanges returns the lines added and removed from a to b (--stat).
func countChanges(a, b []byte) (added, removed int) {
	del, ins := linediff.Edits(linediff.Lines(a), linediff.Lines(b))
	for _, d := range del {
		if d {
			removed++
		}
	}
	for _, d := range ins {
		if d {
			added++
		}
	}
	return added, removed
}

// funcLine is git's default hunk-header context: the last line before
// the hunk that starts with a letter, "_" or "$".
func funcLine(lines []string, before int) string {
	for i := before - 1; i >= 0; i-- {
		l := lines[i]
		if l != "" && (isAlpha(l[0]) || l[0] == '_' || l[0] == '$') {
			l = strings.TrimRight(l, "\n")
			l = strings.TrimRight(l, " \t\r")
			if len(l) > 80 {
				l = l[:80]
			}
			return l
		}
	}
	return ""
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// unified renders the hunks of a → b with ctx lines of context, in git's
// format: each hunk header followed by its function context (the
// "---"/"+++" lines are the caller's).
func unified(a, b []byte, ctx int) string {
	al, bl := linediff.Lines(a), linediff.Lines(b)
	var out strings.Builder
	linediff.WriteHunks(&out, al, bl, linediff.Diff(al, bl), ctx, func(first int) string {
		return funcLine(al, first)
	})
	return out.String()
}
