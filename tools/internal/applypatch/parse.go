package applypatch

import (
	"fmt"
	"regexp"
	"strings"
)

// Envelope and section markers. Matching is case-insensitive and ignores
// surrounding whitespace (see matchMarker).
const (
	markerBegin  = "*** Begin Patch"
	markerEnd    = "*** End Patch"
	markerAdd    = "*** Add File:"
	markerDelete = "*** Delete File:"
	markerUpdate = "*** Update File:"
	markerMove   = "*** Move to:"
	markerEOF    = "*** End of File"
)

// expectedHeader is the list of what may start a file section.
const expectedHeader = `"*** Update File:", "*** Add File:", "*** Delete File:" or "*** End Patch"`

// expectedHunkLine is the list of what may appear inside an Update section.
const expectedHunkLine = `"@@" or a hunk line starting with " " (context), "-" (removed) or "+" (added)`

// ParseError is a syntax error in the patch text. Line is 1-based and
// counts lines of the text given to [Parse], including any heredoc or code
// fence wrapper.
type ParseError struct {
	Line    int
	Message string
}

// Error returns "patch line N: message".
func (e *ParseError) Error() string {
	return fmt.Sprintf("patch line %d: %s", e.Line, e.Message)
}

// Patch is a parsed apply_patch envelope: an ordered list of file
// sections. Create one with [Parse]; compute its effect with [Patch.Plan].
// A Patch is immutable and safe for concurrent use.
type Patch struct {
	files []fileOp
}

// Len returns the number of file sections (Add, Delete and Update File
// headers) in the patch.
func (p *Patch) Len() int { return len(p.files) }

// Paths returns every path the patch touches (each section's path and
// any Move to destination), resolved against cwd as [Patch.Plan] resolves
// them, deduplicated, in patch order. Paths that cannot be resolved (for
// example one that climbs above the root with "..") are left out; Plan
// reports them.
func (p *Patch) Paths(cwd string) []string {
	cwd = cleanCwd(cwd)
	seen := make(map[string]bool)
	var out []string
	add := func(raw string) {
		if raw == "" {
			return
		}
		abs, err := resolve(cwd, raw)
		if err != nil || seen[abs] {
			return
		}
		seen[abs] = true
		out = append(out, abs)
	}
	for _, f := range p.files {
		add(f.path)
		add(f.moveTo)
	}
	return out
}

// fileOp is one file section of the patch, paths as written.
type fileOp struct {
	kind   OpKind
	path   string
	moveTo string   // Update only; "" if absent
	lines  []string // Add only: the content lines, without the "+"
	chunks []chunk  // Update only
	line   int      // patch line of the section header
}

// lineKind says what a hunk line does.
type lineKind uint8

const (
	ctxLine lineKind = iota // " " context: kept
	delLine                 // "-": removed
	addLine                 // "+": added
)

// hunkLine is one line of a hunk body, prefix removed.
type hunkLine struct {
	kind lineKind
	text string
}

// chunk is one hunk of an Update section.
type chunk struct {
	contexts []string   // "@@ text" lines, each narrowing the search start
	body     []hunkLine // in order
	eof      bool       // followed by "*** End of File"
	line     int        // patch line where the hunk starts
}

// srcLine is a line of the patch text with its 1-based line number.
type srcLine struct {
	n    int
	text string
}

// Parse parses an apply_patch envelope. It checks syntax only; it reads no
// files. It is lenient in the ways Codex is and a few more: CRLF line
// endings, blank lines between sections, whitespace and letter case around
// markers, a heredoc (<<'EOF' ... EOF) or Markdown code fence around the
// envelope, context lines without their leading space when they are
// empty, a first hunk without "@@", several "@@ context" lines in a row,
// unified-diff "@@ -1,2 +1,3 @@" headers, and an Update File with a Move
// to and no hunks (a pure rename). Errors are *ParseError.
func Parse(patch string) (*Patch, error) {
	ps := &parser{lines: splitPatch(patch), endLine: 1}
	ps.unwrap()
	if n := len(ps.lines); n > 0 {
		ps.endLine = ps.lines[n-1].n + 1
	}
	return ps.parse()
}

// splitPatch splits text into lines, dropping a byte order mark and the
// "\r" of CRLF line endings. A final newline does not start a new line.
func splitPatch(text string) []srcLine {
	text = strings.TrimPrefix(text, "\ufeff")
	raw := strings.Split(text, "\n")
	if len(raw) > 0 && raw[len(raw)-1] == "" {
		raw = raw[:len(raw)-1]
	}
	out := make([]srcLine, len(raw))
	for i, s := range raw {
		out[i] = srcLine{n: i + 1, text: strings.TrimSuffix(s, "\r")}
	}
	return out
}

type parser struct {
	lines   []srcLine
	i       int
	endLine int // line number reported for "end of input"
}

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

// matchMarker reports whether line, trimmed, starts with marker (case
// insensitively) and returns the rest, trimmed.
func matchMarker(line, marker string) (rest string, ok bool) {
	t := strings.TrimSpace(line)
	if len(t) < len(marker) || !strings.EqualFold(t[:len(marker)], marker) {
		return "", false
	}
	return strings.TrimSpace(t[len(marker):]), true
}

// isMarker reports whether line is exactly marker, give or take case and
// surrounding whitespace.
func isMarker(line, marker string) bool {
	rest, ok := matchMarker(line, marker)
	return ok && rest == ""
}

var (
	// heredocOpen matches "<<EOF", "<<'EOF'", `<<"EOF"`, "<<-EOF", optionally
	// after a command word such as "apply_patch".
	heredocOpen = regexp.MustCompile(`^(?:\S+\s+)?<<-?\s*(?:'([A-Za-z_][A-Za-z0-9_]*)'|"([A-Za-z_][A-Za-z0-9_]*)"|([A-Za-z_][A-Za-z0-9_]*))$`)
	// unifiedHeader matches the body of a unified-diff hunk header after
	// "@@", capturing any trailing section text.
	unifiedHeader = regexp.MustCompile(`^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@(?: (.*))?$`)
)

// unwrap removes leading and trailing blank lines, then a Markdown code
// fence and a heredoc wrapper around the envelope, if present.
func (ps *parser) unwrap() {
	trim := func() {
		for len(ps.lines) > 0 && isBlank(ps.lines[0].text) {
			ps.lines = ps.lines[1:]
		}
		for len(ps.lines) > 0 && isBlank(ps.lines[len(ps.lines)-1].text) {
			ps.lines = ps.lines[:len(ps.lines)-1]
		}
	}
	trim()
	if len(ps.lines) == 0 {
		return
	}
	if strings.HasPrefix(strings.TrimSpace(ps.lines[0].text), "```") {
		ps.lines = ps.lines[1:]
	}
	if n := len(ps.lines); n > 0 && strings.TrimSpace(ps.lines[n-1].text) == "```" {
		ps.lines = ps.lines[:n-1]
	}
	trim()
	if len(ps.lines) == 0 {
		return
	}
	if m := heredocOpen.FindStringSubmatch(strings.TrimSpace(ps.lines[0].text)); m != nil {
		word := m[1] + m[2] + m[3]
		ps.lines = ps.lines[1:]
		if n := len(ps.lines); n > 0 && strings.TrimSpace(ps.lines[n-1].text) == word {
			ps.lines = ps.lines[:n-1]
		}
		trim()
	}
}

func (ps *parser) errf(line int, format string, args ...any) error {
	return &ParseError{Line: line, Message: fmt.Sprintf(format, args...)}
}

func (ps *parser) skipBlank() {
	for ps.i < len(ps.lines) && isBlank(ps.lines[ps.i].text) {
		ps.i++
	}
}

func (ps *parser) parse() (*Patch, error) {
	if len(ps.lines) == 0 {
		return nil, ps.errf(1, "the patch is empty; it must start with %q", markerBegin)
	}
	first := ps.lines[0]
	if !isMarker(first.text, markerBegin) {
		return nil, ps.errf(first.n, "expected %q, got %q", markerBegin, first.text)
	}
	ps.i = 1
	p := &Patch{}
	for {
		ps.skipBlank()
		if ps.i >= len(ps.lines) {
			return nil, ps.errf(ps.endLine, "the patch ends without %q", markerEnd)
		}
		l := ps.lines[ps.i]
		if isMarker(l.text, markerEnd) {
			ps.i++
			ps.skipBlank()
			if ps.i < len(ps.lines) {
				x := ps.lines[ps.i]
				return nil, ps.errf(x.n, "unexpected text after %q: %q", markerEnd, x.text)
			}
			if len(p.files) == 0 {
				return nil, ps.errf(l.n, "the patch has no file sections; expected \"*** Add File:\", \"*** Delete File:\" or \"*** Update File:\" before %q", markerEnd)
			}
			return p, nil
		}
		f, err := ps.parseSection(p.files)
		if err != nil {
			return nil, err
		}
		p.files = append(p.files, f)
	}
}

// sectionHeader parses a file section header line.
func (ps *parser) sectionHeader(l srcLine) (OpKind, string, bool, error) {
	for _, h := range []struct {
		marker string
		kind   OpKind
	}{{markerAdd, Add}, {markerDelete, Delete}, {markerUpdate, Update}} {
		if path, ok := matchMarker(l.text, h.marker); ok {
			if path == "" {
				return 0, "", true, ps.errf(l.n, "%q needs a path", h.marker)
			}
			return h.kind, path, true, nil
		}
	}
	return 0, "", false, nil
}

// parseSection parses the file section starting at the current line.
func (ps *parser) parseSection(prev []fileOp) (fileOp, error) {
	l := ps.lines[ps.i]
	kind, path, ok, err := ps.sectionHeader(l)
	if err != nil {
		return fileOp{}, err
	}
	if !ok {
		if isMarker(l.text, markerEOF) {
			return fileOp{}, ps.errf(l.n, "%q must come right after a hunk's lines", markerEOF)
		}
		if _, ok := matchMarker(l.text, markerMove); ok {
			return fileOp{}, ps.errf(l.n, "%q must come right after an %q line", markerMove, markerUpdate)
		}
		msg := fmt.Sprintf("expected %s, got %q", expectedHeader, l.text)
		if n := len(prev); n > 0 && prev[n-1].kind == Add && !strings.HasPrefix(strings.TrimSpace(l.text), "*") {
			msg += ` (every line of an added file must start with "+")`
		}
		return fileOp{}, &ParseError{Line: l.n, Message: msg}
	}
	f := fileOp{kind: kind, path: path, line: l.n}
	ps.i++
	switch kind {
	case Add:
		f.lines = ps.parseAddBody()
	case Update:
		j := ps.i
		for j < len(ps.lines) && isBlank(ps.lines[j].text) {
			j++
		}
		if j < len(ps.lines) {
			if to, ok := matchMarker(ps.lines[j].text, markerMove); ok {
				if to == "" {
					return fileOp{}, ps.errf(ps.lines[j].n, "%q needs a path", markerMove)
				}
				f.moveTo = to
				ps.i = j + 1
			}
		}
		chunks, err := ps.parseUpdateBody()
		if err != nil {
			return fileOp{}, err
		}
		if len(chunks) == 0 && f.moveTo == "" {
			return fileOp{}, ps.errf(l.n, "%q has no hunks; expected %s", markerUpdate+" "+path, expectedHunkLine)
		}
		f.chunks = chunks
	}
	return f, nil
}

// parseAddBody collects the "+" lines of an Add File section. Blank lines
// followed by more "+" lines count as empty content lines.
func (ps *parser) parseAddBody() []string {
	var out []string
	for ps.i < len(ps.lines) {
		t := ps.lines[ps.i].text
		if strings.HasPrefix(t, "+") {
			out = append(out, t[1:])
			ps.i++
			continue
		}
		if !isBlank(t) {
			break
		}
		j := ps.i
		for j < len(ps.lines) && isBlank(ps.lines[j].text) {
			j++
		}
		if j == len(ps.lines) || !strings.HasPrefix(ps.lines[j].text, "+") {
			break
		}
		for ; ps.i < j; ps.i++ {
			out = append(out, "")
		}
	}
	return out
}

// contextOf returns the narrowing context of an "@@" line (text after the
// marker, or the section text of a unified-diff header), or "".
func contextOf(line string) string {
	rest := strings.TrimRightFunc(strings.TrimPrefix(line, "@@"), isSpace)
	rest = strings.TrimPrefix(rest, " ")
	if m := unifiedHeader.FindStringSubmatch(strings.TrimSpace(rest)); m != nil {
		return strings.TrimSpace(m[1])
	}
	if strings.TrimSpace(rest) == "" {
		return ""
	}
	return rest
}

// parseUpdateBody parses the hunks of an Update File section, stopping at
// the next line that starts with "*" (other than "*** End of File").
func (ps *parser) parseUpdateBody() ([]chunk, error) {
	var chunks []chunk
	// Blank lines before the first hunk separate it from the header.
	ps.skipBlank()
	for ps.i < len(ps.lines) {
		l := ps.lines[ps.i]
		switch {
		case strings.HasPrefix(l.text, "*"):
			if isMarker(l.text, markerEOF) {
				return nil, ps.errf(l.n, "%q must come right after a hunk's lines", markerEOF)
			}
			return chunks, nil
		case strings.HasPrefix(l.text, "@@"):
			c := chunk{line: l.n}
			for ps.i < len(ps.lines) && strings.HasPrefix(ps.lines[ps.i].text, "@@") {
				if ctx := contextOf(ps.lines[ps.i].text); ctx != "" {
					c.contexts = append(c.contexts, ctx)
				}
				ps.i++
			}
			if err := ps.parseHunkBody(&c); err != nil {
				return nil, err
			}
			chunks = append(chunks, c)
		case len(chunks) == 0 && isHunkLine(l.text):
			// Codex allows the first hunk to omit "@@".
			c := chunk{line: l.n}
			if err := ps.parseHunkBody(&c); err != nil {
				return nil, err
			}
			chunks = append(chunks, c)
		default:
			return nil, ps.errf(l.n, "expected %s, got %q", expectedHunkLine, l.text)
		}
	}
	return chunks, nil
}

// isHunkLine reports whether s can be a line of a hunk body: it starts
// with " ", "-" or "+", or is blank (an empty context line whose leading
// space was lost).
func isHunkLine(s string) bool {
	return s == "" || s[0] == ' ' || s[0] == '-' || s[0] == '+' || isBlank(s)
}

// parseHunkBody reads the lines of one hunk into c, and a following
// "*** End of File" if any.
func (ps *parser) parseHunkBody(c *chunk) error {
	for ps.i < len(ps.lines) {
		t := ps.lines[ps.i].text
		switch {
		case t == "" || isBlank(t) && t[0] != ' ':
			c.body = append(c.body, hunkLine{ctxLine, ""})
		case t[0] == ' ':
			c.body = append(c.body, hunkLine{ctxLine, t[1:]})
		case t[0] == '-':
			c.body = append(c.body, hunkLine{delLine, t[1:]})
		case t[0] == '+':
			c.body = append(c.body, hunkLine{addLine, t[1:]})
		case isMarker(t, markerEOF):
			if len(c.body) == 0 {
				return ps.errf(ps.lines[ps.i].n, "%q must come right after a hunk's lines", markerEOF)
			}
			c.eof = true
			ps.i++
			return ps.checkBody(c)
		default:
			return ps.checkBody(c)
		}
		ps.i++
	}
	return ps.checkBody(c)
}

func (ps *parser) checkBody(c *chunk) error {
	if len(c.body) > 0 {
		return nil
	}
	if ps.i >= len(ps.lines) {
		return ps.errf(ps.endLine, "expected a hunk line starting with \" \" (context), \"-\" (removed) or \"+\" (added) after \"@@\", got end of patch")
	}
	l := ps.lines[ps.i]
	return ps.errf(l.n, "expected a hunk line starting with \" \" (context), \"-\" (removed) or \"+\" (added) after \"@@\", got %q", l.text)
}
