package applypatch

import "strings"

// textFile is a file split into lines. Each line keeps its own ending so
// that lines the patch does not touch come back byte for byte.
type textFile struct {
	lines []string // line text, without "\n" or "\r\n"
	ends  []string // "\n", "\r\n", or "" (only for an unterminated last line)
	// eol is the ending given to lines the patch adds: "\r\n" if the file
	// has at least as many CRLF as LF endings, else "\n".
	eol string
	// finalNewline is whether the file ends with a line ending (true for
	// an empty file, so that lines added to it are terminated).
	finalNewline bool
}

func splitText(data []byte) *textFile {
	s := string(data)
	tf := &textFile{eol: "\n", finalNewline: s == "" || strings.HasSuffix(s, "\n")}
	crlf, lf := 0, 0
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			tf.lines = append(tf.lines, s)
			tf.ends = append(tf.ends, "")
			break
		}
		line, end := s[:i], "\n"
		if strings.HasSuffix(line, "\r") {
			line, end = line[:len(line)-1], "\r\n"
			crlf++
		} else {
			lf++
		}
		tf.lines = append(tf.lines, line)
		tf.ends = append(tf.ends, end)
		s = s[i+1:]
	}
	if crlf > 0 && crlf >= lf {
		tf.eol = "\r\n"
	}
	return tf
}

// replacement replaces n lines of a file starting at start by walking body:
// context lines keep the file's own text and ending, removed lines are
// dropped, added lines are inserted with the file's preferred ending.
type replacement struct {
	start, n int
	body     []hunkLine
}

// apply returns the file's content after the replacements, which must be
// sorted and must not overlap. The file keeps its trailing-newline state.
func (tf *textFile) apply(reps []replacement) []byte {
	var lines, ends []string
	next := 0
	for _, r := range reps {
		lines = append(lines, tf.lines[next:r.start]...)
		ends = append(ends, tf.ends[next:r.start]...)
		j := r.start
		for _, h := range r.body {
			switch h.kind {
			case ctxLine:
				lines = append(lines, tf.lines[j])
				ends = append(ends, tf.ends[j])
				j++
			case delLine:
				j++
			case addLine:
				lines = append(lines, h.text)
				ends = append(ends, tf.eol)
			}
		}
		next = r.start + r.n
	}
	lines = append(lines, tf.lines[next:]...)
	ends = append(ends, tf.ends[next:]...)

	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l)
		switch {
		case i < len(lines)-1:
			if ends[i] == "" { // a formerly last, unterminated line moved inward
				b.WriteString(tf.eol)
			} else {
				b.WriteString(ends[i])
			}
		case tf.finalNewline:
			if ends[i] == "" {
				b.WriteString(tf.eol)
			} else {
				b.WriteString(ends[i])
			}
		}
	}
	return []byte(b.String())
}
