package search

import (
	"bytes"
	"context"
	"io"
	"unicode/utf8"
)

// sniffLen is how much of the start of a file is checked for a NUL byte,
// the sign of a binary file.
const sniffLen = 8 << 10

// Line is one line of a file.
type Line struct {
	// Num is the line's 1-based number.
	Num int
	// Text is the line without its "\n" or "\r\n", cut to the matcher's
	// MaxLineBytes (at a UTF-8 boundary when the line is valid UTF-8).
	Text string
	// IsMatch reports whether the line matches.
	IsMatch bool
	// Truncated reports whether Text was cut short.
	Truncated bool
}

// Hit is a matching line with its context.
type Hit struct {
	// Line is the matching line.
	Line Line
	// Before and After are up to Options.Context lines on either side of
	// Line, in file order. They are whole lines of the same file, and a
	// context line that matches too has IsMatch set (and is also reported
	// as a Hit of its own).
	Before, After []Line
}

// Scanner runs a Matcher over files. It keeps its buffers from one file to
// the next, so a goroutine should reuse one Scanner for all its files. Its
// memory use depends on the chunk sizes and on line lengths up to
// MaxMatchLineBytes, never on the file size.
type Scanner struct {
	m    *Matcher
	ctx  context.Context // checked while searching; nil: never
	head []byte          // the first chunks of a file, gathered to detect binary files
	tail []byte          // the incomplete last line of the chunks seen so far

	// Per-file state.
	skipRest bool           // discarding the rest of a line cut at m.matchCap
	stopped  bool           // emit returned false, or the count limit was reached
	found    int            // matching lines skipped and emitted, or counted
	skip     int            // ScanFile: matching lines to pass over unreported
	limit    int            // CountFile: count at which to stop, if positive
	emit     func(Hit) bool // ScanFile: the callback; nil in CountFile
	lineNum  int            // ScanFile: number of the line that starts the next block
	hist     []Line         // ScanFile: up to m.context lines before the next block
	pending  []Hit          // ScanFile: hits still short of After lines, in order
	err      error          // ctx's error, once it ended the scan
	polls    int            // candidates since ctx was last checked
}

// NewScanner returns a Scanner for m.
func (m *Matcher) NewScanner() *Scanner {
	return &Scanner{m: m}
}

// WithContext makes the Scanner stop a scan soon after ctx ends, within a
// file as well as between chunks: ScanFile and CountFile then return
// ctx's error. It returns s.
//
// The context is checked before every regular-expression search (a
// candidate search runs over at most regexWindow bytes of whole lines at
// a time) and every pollEvery literal candidates. One search of one line
// cannot be interrupted: its cost is bounded by regexStepBudget steps,
// which Compile sees to by searching less of each line for a large
// expression (Matcher.MatchLineBytes).
func (s *Scanner) WithContext(ctx context.Context) *Scanner {
	s.ctx = ctx
	return s
}

// regexWindow is how much text, in whole lines, one candidate search by a
// regular expression covers, so that a slow expression over a long run of
// non-matching lines still lets the context be checked.
const regexWindow = 16 << 10

// pollEvery is how many cheap (literal) candidates pass between two checks
// of the context.
const pollEvery = 256

// interrupted reports whether the scan must stop because its context
// ended; cheap, when only a literal search ran since the last check.
func (s *Scanner) interrupted(costly bool) bool {
	if s.ctx == nil {
		return false
	}
	if s.polls++; !costly && s.polls < pollEvery {
		return false
	}
	s.polls = 0
	if err := s.ctx.Err(); err != nil {
		s.err, s.stopped = err, true
		return true
	}
	return false
}

// ScanFile searches a file and reports its matching lines to emit, in
// order, until emit returns false.
//
// next returns the file's content chunk by chunk, then io.EOF (with which
// it may return a last chunk); a chunk may be reused once next is called
// again, and any other error ends the scan and is returned. Lines are split
// at "\n", a "\r" ending a line is not part of its text, and a last line
// without "\n" is a line too. Lines and matches may span chunks. Only the
// first m.MatchLineBytes() bytes of a line are searched and kept.
//
// The first skip matching lines are counted but not reported, cheaply, so
// that a caller can page through matches. ScanFile returns the number of
// matching lines skipped or passed to emit. When a NUL byte occurs in the
// first 8 KiB, the file is taken to be binary: ScanFile reports nothing and
// returns binary true.
func (s *Scanner) ScanFile(next func() ([]byte, error), skip int, emit func(Hit) bool) (matches int, binary bool, err error) {
	s.reset()
	s.skip, s.emit, s.lineNum = skip, emit, 1
	return s.run(next)
}

// CountFile counts a file's matching lines, stopping once it has found
// limit of them if limit is positive (1 answers "does the file match?").
// It reads next and detects binary files as ScanFile does, but builds no
// Line values.
func (s *Scanner) CountFile(next func() ([]byte, error), limit int) (matches int, binary bool, err error) {
	s.reset()
	s.limit = limit
	return s.run(next)
}

// reset clears the per-file state, dropping references to the previous
// file's lines.
func (s *Scanner) reset() {
	clear(s.hist)
	clear(s.pending)
	*s = Scanner{m: s.m, ctx: s.ctx, head: s.head[:0], tail: s.tail[:0], hist: s.hist[:0], pending: s.pending[:0]}
}

func (s *Scanner) run(next func() ([]byte, error)) (int, bool, error) {
	first, eof, err := s.readHead(next)
	if err != nil {
		return 0, false, err
	}
	if bytes.IndexByte(first[:min(len(first), sniffLen)], 0) >= 0 {
		return 0, true, nil
	}
	s.feed(first)
	for !eof && !s.stopped {
		var chunk []byte
		chunk, err = next()
		if eof = err == io.EOF; err != nil && !eof {
			return s.found, false, err
		}
		s.feed(chunk)
	}
	if !s.stopped {
		s.finish()
	}
	if s.err != nil {
		return s.found, false, s.err
	}
	return s.found, false, nil
}

// readHead reads chunks until it has sniffLen bytes or the whole file, and
// returns them: the first chunk itself when that is enough, else a copy.
func (s *Scanner) readHead(next func() ([]byte, error)) ([]byte, bool, error) {
	for {
		chunk, err := next()
		eof := err == io.EOF
		if err != nil && !eof {
			return nil, false, err
		}
		if len(s.head) == 0 && (eof || len(chunk) >= sniffLen) {
			return chunk, eof, nil
		}
		s.head = append(s.head, chunk...)
		if eof || len(s.head) >= sniffLen {
			return s.head, eof, nil
		}
	}
}

// feed searches the lines that chunk c completes and keeps its incomplete
// last line for the next chunk.
//
// It maintains the invariant that block sees no line whose text is longer
// than matchCap: c is fed in pieces of at most matchCap+1 bytes, so a line
// that lies within a piece is short enough, and a line assembled from
// several pieces is cut to matchCap bytes when it is too long.
func (s *Scanner) feed(c []byte) {
	for piece := s.m.matchCap + 1; len(c) > piece && !s.stopped; c = c[piece:] {
		s.feedPiece(c[:piece])
	}
	s.feedPiece(c)
}

func (s *Scanner) feedPiece(c []byte) {
	if s.skipRest {
		i := bytes.IndexByte(c, '\n')
		if i < 0 {
			return
		}
		s.skipRest = false
		c = c[i+1:]
	}
	if len(s.tail) > 0 {
		i := bytes.IndexByte(c, '\n')
		n := i // how much of c belongs to the tail's line, without "\n"
		if i < 0 {
			n = len(c)
		}
		switch {
		case len(s.tail)+n > s.m.matchCap+1:
			// The line is too long: search its first matchCap bytes
			// and skip the rest.
			s.tail = append(s.tail, c[:max(0, s.m.matchCap-len(s.tail))]...)
			s.cutLine()
			if i < 0 {
				s.skipRest = true
				return
			}
		case i < 0:
			s.tail = append(s.tail, c...)
			return
		default:
			s.tail = append(s.tail, c[:i+1]...)
			s.lastLine(s.tail[:len(s.tail)-1])
		}
		c = c[i+1:]
	}
	j := bytes.LastIndexByte(c, '\n')
	if j >= 0 {
		s.block(c[:j+1], false)
	}
	s.tail = append(s.tail, c[j+1:]...)
}

// lastLine searches the line in s.tail, whose content without "\n" is
// raw, at most matchCap+1 bytes, and empties s.tail.
func (s *Scanner) lastLine(raw []byte) {
	if len(lineText(raw, false)) > s.m.matchCap {
		s.cutLine()
		return
	}
	s.block(s.tail, false)
	s.tail = s.tail[:0]
}

// cutLine searches the first matchCap bytes of the line in s.tail, which
// is longer, and empties s.tail.
func (s *Scanner) cutLine() {
	s.block(s.tail[:s.m.matchCap], true)
	s.tail = s.tail[:0]
}

// finish searches the last line if it has no "\n" and reports the hits
// still waiting for context.
func (s *Scanner) finish() {
	if len(s.tail) > 0 {
		s.lastLine(s.tail)
	}
	for _, h := range s.pending {
		s.deliver(h)
	}
}

// block searches b, a run of whole lines starting at a line start, none
// with text longer than matchCap. Each line ends with "\n" except possibly
// the last, which is then the file's last line or, when cut is set, all b
// is: the first matchCap bytes of a longer line.
func (s *Scanner) block(b []byte, cut bool) {
	if s.stopped {
		return
	}
	m := s.m
	if len(s.pending) > 0 {
		s.fillPending(b, cut)
	}
	// counted is the offset in b up to which lines have been counted
	// into s.lineNum.
	counted := 0
	cur := newFoldCursor()
	costly := m.bufRe != nil || m.lineRe != nil
	for pos := 0; pos < len(b) && !s.stopped; {
		if s.interrupted(costly) {
			return
		}
		end := len(b)
		if m.bufRe != nil && len(b)-pos > m.window {
			// Search a window of whole lines: bufRe matches within
			// one line, so a match found there is the first in b.
			end = lineEnd(b, pos+m.window)
		}
		p := m.index(b[:end], pos, &cur)
		if p < 0 && end < len(b) {
			pos = end + 1
			continue
		}
		if p < 0 || p == len(b) && b[p-1] == '\n' {
			// No candidate, or an empty match after the last "\n",
			// which is in no line.
			break
		}
		ls := pos + 1 + bytes.LastIndexByte(b[pos:p], '\n')
		le := lineEnd(b, p)
		if m.exact || m.matchLine(lineText(b[ls:le], cut)) {
			s.hit(b, ls, le, &counted, cut)
		}
		pos = le + 1
	}
	if s.stopped || s.emit == nil {
		return
	}
	s.lineNum += bytes.Count(b[counted:], newline)
	if b[len(b)-1] != '\n' {
		s.lineNum++
	}
	if m.context > 0 {
		s.remember(b, cut)
	}
}

var newline = []byte{'\n'}

// hit handles the matching line b[ls:le].
func (s *Scanner) hit(b []byte, ls, le int, counted *int, cut bool) {
	if s.emit == nil {
		s.found++
		s.stopped = s.found == s.limit
		return
	}
	s.lineNum += bytes.Count(b[*counted:ls], newline)
	*counted = ls
	if s.found < s.skip {
		s.found++
		return
	}
	h := Hit{Line: s.newLine(s.lineNum, lineText(b[ls:le], cut), cut, true)}
	if s.m.context > 0 {
		h.Before = s.before(b, ls)
		h.After = s.after(b, le)
	}
	if len(s.pending) > 0 || len(h.After) < s.m.context {
		s.pending = append(s.pending, h)
		return
	}
	s.deliver(h)
}

func (s *Scanner) deliver(h Hit) {
	if s.stopped {
		return
	}
	s.found++
	s.stopped = !s.emit(h)
}

// before returns the context lines before the line starting at b[ls],
// which is line s.lineNum.
func (s *Scanner) before(b []byte, ls int) []Line {
	n := s.m.context
	lines := make([]Line, n)
	i := n
	for end := ls - 1; end >= 0 && i > 0; {
		start := bytes.LastIndexByte(b[:end], '\n') + 1
		i--
		lines[i] = s.contextLine(s.lineNum-(n-i), b[start:end], false)
		end = start - 1
	}
	// The rest come from before the block.
	k := min(i, len(s.hist))
	i -= copy(lines[i-k:i], s.hist[len(s.hist)-k:])
	if i == n {
		return nil
	}
	return lines[i:]
}

// after returns the context lines that follow the line ending at b[le] and
// are in b; the rest come with later blocks.
func (s *Scanner) after(b []byte, le int) []Line {
	var lines []Line
	for start := le + 1; start < len(b) && len(lines) < s.m.context; {
		end := lineEnd(b, start)
		lines = append(lines, s.contextLine(s.lineNum+1+len(lines), b[start:end], false))
		start = end + 1
	}
	return lines
}

// fillPending adds the first lines of block b to the After lines of the
// pending hits and delivers the hits whose context is complete.
func (s *Scanner) fillPending(b []byte, cut bool) {
	n := s.m.context
	num := s.lineNum
	// The newest pending hit needs the most lines.
	for start := 0; start < len(b) && len(s.pending[len(s.pending)-1].After) < n; num++ {
		end := lineEnd(b, start)
		l := s.contextLine(num, b[start:end], cut)
		for i := range s.pending {
			if h := &s.pending[i]; len(h.After) < n {
				h.After = append(h.After, l)
			}
		}
		start = end + 1
	}
	done := 0
	for done < len(s.pending) && len(s.pending[done].After) == n {
		s.deliver(s.pending[done])
		done++
	}
	rest := copy(s.pending, s.pending[done:])
	clear(s.pending[rest:])
	s.pending = s.pending[:rest]
}

// remember keeps the last lines of block b, which has been counted into
// s.lineNum, for the Before context of hits in later blocks.
func (s *Scanner) remember(b []byte, cut bool) {
	n := s.m.context
	// Take up to n lines of b, last first.
	var lines []Line
	end := len(b)
	if b[end-1] == '\n' {
		end--
	}
	for len(lines) < n {
		start := bytes.LastIndexByte(b[:end], '\n') + 1
		lines = append(lines, s.contextLine(s.lineNum-1-len(lines), b[start:end], cut))
		if start == 0 {
			break
		}
		end = start - 1
	}
	kept := copy(s.hist, s.hist[max(0, len(s.hist)-(n-len(lines))):])
	clear(s.hist[kept:])
	s.hist = s.hist[:kept]
	for i := len(lines) - 1; i >= 0; i-- {
		s.hist = append(s.hist, lines[i])
	}
}

// contextLine builds a context line from its bytes without "\n".
func (s *Scanner) contextLine(num int, raw []byte, cut bool) Line {
	text := lineText(raw, cut)
	return s.newLine(num, text, cut, s.m.matchLine(text))
}

// newLine builds a Line, cutting its text to the reporting limit.
func (s *Scanner) newLine(num int, text []byte, cut, isMatch bool) Line {
	l := Line{Num: num, IsMatch: isMatch, Truncated: cut || len(text) > s.m.maxLine}
	if l.Truncated {
		text = text[:runeBoundary(text, min(len(text), s.m.maxLine))]
	}
	l.Text = string(text)
	return l
}

// lineEnd returns the offset of the "\n" ending the line that starts at
// b[start], or len(b).
func lineEnd(b []byte, start int) int {
	if k := bytes.IndexByte(b[start:], '\n'); k >= 0 {
		return start + k
	}
	return len(b)
}

// lineText returns the text of a line given without its "\n": all of it
// if the line was cut, else without a final '\r'.
func lineText(raw []byte, cut bool) []byte {
	if !cut && len(raw) > 0 && raw[len(raw)-1] == '\r' {
		return raw[:len(raw)-1]
	}
	return raw
}

// runeBoundary returns n, or less if b[:n] ends with an incomplete UTF-8
// sequence, to cut b without splitting a character.
func runeBoundary(b []byte, n int) int {
	for i := n - 1; i >= 0 && i > n-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:n]) {
				return i
			}
			break
		}
	}
	return n
}
