package linediff

import "strings"

// Lines splits text into lines, each keeping its "\n"; the last line may
// lack one. The lines share one copy of text.
func Lines(text []byte) []string {
	s := string(text)
	out := make([]string, 0, strings.Count(s, "\n")+1)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}
