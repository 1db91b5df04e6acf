package applypatch

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// OpKind is the kind of a file operation.
type OpKind int

// The kinds of file operations, one per section header.
const (
	Add    OpKind = iota + 1 // "*** Add File:"
	Delete                   // "*** Delete File:"
	Update                   // "*** Update File:", possibly with "*** Move to:"
)

// String returns "Add", "Delete" or "Update".
func (k OpKind) String() string {
	switch k {
	case Add:
		return "Add"
	case Delete:
		return "Delete"
	case Update:
		return "Update"
	}
	return fmt.Sprintf("OpKind(%d)", int(k))
}

// Op is one file operation computed by [Patch.Plan].
type Op struct {
	Kind OpKind
	// Path is the absolute, clean path of the file added, deleted or
	// updated (for a move, the source).
	Path string
	// MoveTo is the absolute, clean destination of an Update with a
	// "*** Move to:" other than Path itself; "" otherwise. The caller
	// writes Content to MoveTo, replacing any file there, and removes Path.
	MoveTo string
	// Content is the complete new content of the file for Add and Update;
	// nil for Delete.
	Content []byte
	// Hunks is the number of hunks of an Update; 0 for Add and Delete.
	Hunks int
}

// Reader reads the current content of files. ReadFile gets absolute, clean
// paths; when the file does not exist its error must satisfy
// errors.Is(err, fs.ErrNotExist). Other errors (for example for a
// directory) are reported to the model as they are.
type Reader interface {
	ReadFile(path string) ([]byte, error)
}

// Plan computes the effect of the patch on the files r reads, without
// changing anything: one Op per file section, in patch order. Relative
// paths in the patch are resolved against cwd ("" means "/"). Sections
// apply in sequence: a section sees the files as the sections before it
// left them (so several Update File sections for one file apply one after
// the other), and the caller must perform the Ops in order.
//
// Plan is all-or-nothing: if anything fails it returns no Ops and an
// error. It checks every section and every hunk rather than stopping at
// the first problem. One problem is returned as a *FileError or
// *HunkError, several as a *PlanError holding them all. If the patch
// fails but its result is already in place, the error is an
// *AlreadyAppliedError instead. Once a section on a path has failed,
// later sections touching that path are not checked, since their input
// is unknown.
//
// Choices, matching Codex unless said otherwise: an Update's hunks must
// appear in file order; a Move to onto an existing file overwrites it (as
// Codex does); an Add onto an existing file is an error (Codex overwrites);
// an Update keeps the file's line endings and whether it ends with a
// newline (Codex always adds one); a hunk that only adds lines goes after
// its last "@@" context line if it has one (Codex appends such hunks at
// the end of the file regardless), else at the end of the file.
func (p *Patch) Plan(r Reader, cwd string) ([]Op, error) {
	pl := &planner{r: r, read: make(map[string]*readResult), cur: make(map[string]*entry)}
	cwd = cleanCwd(cwd)
	var ops []Op
	var errs []error
	fail := func(kind OpKind, path, msg string, err error) {
		errs = append(errs, &FileError{Kind: kind, Path: path, Message: msg, Err: err})
	}
	for _, f := range p.files {
		abs, err := resolve(cwd, f.path)
		if err != nil {
			fail(f.kind, f.path, err.Error(), nil)
			continue
		}
		e := pl.entry(abs)
		if e.failed {
			continue
		}
		if e.err != nil {
			fail(f.kind, abs, e.err.Error(), e.err)
			e.failed = true
			continue
		}
		switch f.kind {
		case Add:
			if e.exists {
				fail(Add, abs, "the file already exists (use Update File)", nil)
				e.failed = true
				continue
			}
			content := addContent(f.lines)
			e.exists, e.data = true, content
			ops = append(ops, Op{Kind: Add, Path: abs, Content: content})

		case Delete:
			if !e.exists {
				fail(Delete, abs, "no such file", nil)
				e.failed = true
				continue
			}
			e.exists, e.data = false, nil
			ops = append(ops, Op{Kind: Delete, Path: abs})

		case Update:
			var dest *entry
			destPath := ""
			if f.moveTo != "" {
				d, err := resolve(cwd, f.moveTo)
				if err != nil {
					fail(Update, abs, fmt.Sprintf("bad Move to path %q: %v", f.moveTo, err), nil)
					e.failed = true
					continue
				}
				if d != abs {
					destPath, dest = d, pl.entry(d)
					if dest.failed {
						e.failed = true
						continue
					}
					if dest.err != nil {
						fail(Update, abs, fmt.Sprintf("cannot replace the Move to destination %s: %v", d, dest.err), dest.err)
						e.failed, dest.failed = true, true
						continue
					}
				}
			}
			if !e.exists {
				fail(Update, abs, "no such file", nil)
				e.failed = true
				if dest != nil {
					dest.failed = true
				}
				continue
			}
			content, herrs := updateContent(abs, e.data, f.chunks)
			if len(herrs) > 0 {
				errs = append(errs, herrs...)
				e.failed = true
				if dest != nil {
					dest.failed = true
				}
				continue
			}
			if dest != nil {
				e.exists, e.data = false, nil
				dest.exists, dest.data = true, content
			} else {
				e.data = content
			}
			ops = append(ops, Op{Kind: Update, Path: abs, MoveTo: destPath, Content: content, Hunks: len(f.chunks)})
		}
	}
	switch {
	case len(errs) == 0:
		return ops, nil
	case pl.alreadyApplied(p, cwd):
		return nil, &AlreadyAppliedError{Paths: p.Paths(cwd)}
	case len(errs) == 1:
		return nil, errs[0]
	}
	return nil, &PlanError{Errors: errs}
}

// readResult is what the Reader said about a path.
type readResult struct {
	exists bool
	data   []byte
	err    error // other than "does not exist"
}

// entry is a path's state as the sections planned so far left it.
type entry struct {
	readResult
	failed bool // a section on this path failed
}

type planner struct {
	r    Reader
	read map[string]*readResult
	cur  map[string]*entry
}

// original returns what the Reader says about path, reading it once.
func (pl *planner) original(path string) *readResult {
	if rr, ok := pl.read[path]; ok {
		return rr
	}
	rr := &readResult{}
	data, err := pl.r.ReadFile(path)
	switch {
	case err == nil:
		rr.exists, rr.data = true, data
	case !errors.Is(err, fs.ErrNotExist):
		rr.err = err
	}
	pl.read[path] = rr
	return rr
}

// entry returns the current planned state of path.
func (pl *planner) entry(path string) *entry {
	if e, ok := pl.cur[path]; ok {
		return e
	}
	e := &entry{readResult: *pl.original(path)}
	pl.cur[path] = e
	return e
}

// alreadyApplied reports whether the patch's result is already in place
// in the files as they are, with positive evidence (an added file with
// the added content, a hunk's added lines, or a completed rename).
// Patches that touch a path twice, or have a path that cannot be
// resolved, are never considered applied.
func (pl *planner) alreadyApplied(p *Patch, cwd string) bool {
	seen := make(map[string]bool)
	type target struct {
		f         *fileOp
		abs, dest string
	}
	var targets []target
	for i := range p.files {
		f := &p.files[i]
		t := target{f: f}
		var err error
		if t.abs, err = resolve(cwd, f.path); err != nil || seen[t.abs] {
			return false
		}
		seen[t.abs] = true
		if f.moveTo != "" {
			if t.dest, err = resolve(cwd, f.moveTo); err != nil {
				return false
			}
			if t.dest == t.abs {
				t.dest = ""
			} else if seen[t.dest] {
				return false
			}
			seen[t.dest] = true
		}
		targets = append(targets, t)
	}
	// Only an added file or a hunk that adds lines is positive evidence;
	// a missing file to delete may just be a wrong path.
	evidence := false
	for _, t := range targets {
		switch t.f.kind {
		case Add:
			rr := pl.original(t.abs)
			if !rr.exists || !sameText(rr.data, addContent(t.f.lines)) {
				return false
			}
			evidence = true
		case Delete:
			if rr := pl.original(t.abs); rr.exists || rr.err != nil {
				return false
			}
		case Update:
			where := t.abs
			if t.dest != "" {
				if rr := pl.original(t.abs); rr.exists || rr.err != nil {
					return false
				}
				where = t.dest
			}
			rr := pl.original(where)
			if !rr.exists {
				return false
			}
			ok, ev := resultPresent(newMatcher(splitText(rr.data).lines), t.f.chunks)
			if !ok {
				return false
			}
			evidence = evidence || ev || t.dest != "" && len(t.f.chunks) == 0
		}
	}
	return evidence
}

// sameText reports whether a file's content equals added content, which
// has LF endings, allowing the file CRLF endings.
func sameText(file, added []byte) bool {
	return bytes.Equal(file, added) || bytes.Equal(bytes.ReplaceAll(file, []byte("\r\n"), []byte("\n")), added)
}

// addContent returns an added file's content: each line terminated by
// "\n", as Codex writes it.
func addContent(lines []string) []byte {
	if len(lines) == 0 {
		return []byte{}
	}
	return []byte(strings.Join(lines, "\n") + "\n")
}

// cleanCwd makes cwd absolute and clean; "" means "/".
func cleanCwd(cwd string) string {
	return path.Clean("/" + cwd)
}

// resolve returns p as an absolute, clean path, relative paths taken from
// cwd. Like the workspace's own path rules, ".." may not climb above the
// root.
func resolve(cwd, p string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", errors.New("the path contains a NUL byte")
	}
	full := p
	if !strings.HasPrefix(p, "/") {
		full = cwd + "/" + p
	}
	var segs []string
	for _, s := range strings.Split(full, "/") {
		switch s {
		case "", ".":
		case "..":
			if len(segs) == 0 {
				return "", errors.New("the path climbs above the root directory")
			}
			segs = segs[:len(segs)-1]
		default:
			segs = append(segs, s)
		}
	}
	if len(segs) == 0 {
		return "", errors.New("the path is the root directory, not a file")
	}
	return "/" + strings.Join(segs, "/"), nil
}

// updateContent applies an Update section's hunks to data. It returns the
// new content, or a *HunkError for every hunk that does not apply.
func updateContent(path string, data []byte, chunks []chunk) ([]byte, []error) {
	if len(chunks) == 0 { // a pure rename
		return bytes.Clone(data), nil
	}
	tf := splitText(data)
	m := newMatcher(tf.lines)
	var reps []replacement
	var errs []error
	pos := 0
	for k := range chunks {
		c := &chunks[k]
		rep, next, ok := locate(m, c, pos)
		if !ok {
			he := diagnose(m, c, pos, path)
			he.Path, he.Hunk, he.Hunks, he.PatchLine = path, k+1, len(chunks), c.line
			errs = append(errs, he)
			continue
		}
		reps = append(reps, rep)
		pos = next
	}
	if len(errs) > 0 {
		return nil, errs
	}
	// Insertions at the end of the file may precede later hunks in patch
	// order; a stable sort puts them last and keeps equal starts in order.
	slices.SortStableFunc(reps, func(a, b replacement) int { return a.start - b.start })
	for i := 1; i < len(reps); i++ {
		if reps[i].start < reps[i-1].start+reps[i-1].n {
			return nil, []error{&HunkError{Path: path, Hunk: len(chunks), Hunks: len(chunks),
				Message: "the hunks overlap; merge them into one hunk"}}
		}
	}
	return tf.apply(reps), nil
}

// oldSide returns the lines a hunk body expects (context and removed).
func oldSide(body []hunkLine) []string {
	var out []string
	for _, h := range body {
		if h.kind != addLine {
			out = append(out, h.text)
		}
	}
	return out
}

// newSide returns the lines a hunk body leaves (context and added).
func newSide(body []hunkLine) []string {
	var out []string
	for _, h := range body {
		if h.kind != delLine {
			out = append(out, h.text)
		}
	}
	return out
}

// variants returns the hunk body to try matching, then, like Codex's
// retry, the body without trailing blank context lines (often separators
// before the next "@@", not lines of the file), then also without leading
// ones. Bodies whose lines would all be gone are left out.
func variants(body []hunkLine) [][]hunkLine {
	blankCtx := func(h hunkLine) bool { return h.kind == ctxLine && isBlank(h.text) }
	out := [][]hunkLine{body}
	end := len(body)
	for end > 0 && blankCtx(body[end-1]) {
		end--
	}
	if end > 0 && end < len(body) {
		out = append(out, body[:end])
	}
	start := 0
	for start < end && blankCtx(body[start]) {
		start++
	}
	if start > 0 && start < end {
		out = append(out, body[start:end])
	}
	return out
}

// findContext returns the index of the first line at or after pos that
// matches the "@@" context line ctx, or -1. Beyond Codex's four levels, a
// line whose normalised text starts with the normalised context matches,
// since models often shorten the header ("@@ def run" for
// "def run(self, x):").
func findContext(m *matcher, ctx string, pos int) int {
	if at := m.seek([]string{ctx}, pos, false); at >= 0 {
		return at
	}
	nctx := normalise(ctx)
	if nctx == "" {
		return -1
	}
	norm := m.level(levelNormalise)
	for i := max(pos, 0); i < len(norm); i++ {
		if strings.HasPrefix(norm[i], nctx) {
			return i
		}
	}
	return -1
}

// seekContexts narrows pos by each "@@" context line of c in turn. It
// returns the position after the last one, or the index of the first
// context line not found (and ok false).
func seekContexts(m *matcher, c *chunk, pos int) (int, int, bool) {
	for i, ctx := range c.contexts {
		at := findContext(m, ctx, pos)
		if at < 0 {
			return pos, i, false
		}
		pos = at + 1
	}
	return pos, 0, true
}

// locate finds where hunk c applies, searching from line index pos. It
// returns the replacement and the position to search the next hunk from.
func locate(m *matcher, c *chunk, pos int) (replacement, int, bool) {
	pos, _, ok := seekContexts(m, c, pos)
	if !ok {
		return replacement{}, 0, false
	}
	if len(oldSide(c.body)) == 0 {
		// Pure addition: after the last "@@" context line if there is one,
		// else (or if anchored at the end of the file) at the end.
		at := pos
		if c.eof || len(c.contexts) == 0 {
			at = len(m.lines)
		}
		return replacement{start: at, body: c.body}, pos, true
	}
	for _, v := range variants(c.body) {
		old := oldSide(v)
		if len(old) == 0 {
			continue
		}
		if at := m.seek(old, pos, c.eof); at >= 0 {
			return replacement{start: at, n: len(old), body: v}, at + len(old), true
		}
	}
	return replacement{}, 0, false
}

// diagnose explains why hunk c does not apply from line index pos.
func diagnose(m *matcher, c *chunk, pos int, path string) *HunkError {
	he := &HunkError{}
	ctxPos, bad, ok := seekContexts(m, c, pos)
	if !ok {
		ctx := c.contexts[bad]
		he.Message = "could not find the \"@@\" context line:\n" + ctx
		if ctxPos > 0 {
			if at := findContext(m, ctx, 0); at >= 0 {
				he.Message = fmt.Sprintf("could not find the \"@@\" context line after line %d:\n%s\n"+
					"It occurs at line %d, above the previous hunk or \"@@\" line: the hunks of an Update File must follow the file's order.",
					ctxPos, ctx, at+1)
				return he
			}
		}
		addNearest(he, m, []string{ctx}, ctxPos, path)
		return he
	}
	vs := variants(c.body)
	body := vs[len(vs)-1]
	old := oldSide(body)
	lines := strings.Join(old, "\n")
	if c.eof {
		if at := m.seek(old, ctxPos, false); at >= 0 {
			he.Message = fmt.Sprintf("could not find these lines at the end of the file (the hunk ends with %q):\n%s\n"+
				"They occur at line %d, which is not the end of the file.", markerEOF, lines, at+1)
			return he
		}
	}
	if ctxPos > 0 {
		if at := m.seek(old, 0, false); at >= 0 {
			he.Message = fmt.Sprintf("could not find the context lines after line %d:\n%s\n"+
				"They occur at line %d, above the previous hunk or \"@@\" line: the hunks of an Update File must follow the file's order.",
				ctxPos, lines, at+1)
			return he
		}
	}
	he.Message = "could not find the context lines:\n" + lines
	if hasAdded(body) {
		if at := m.seek(newSide(body), ctxPos, c.eof); at >= 0 {
			he.Message += fmt.Sprintf("\nThe hunk's new lines are already present at line %d; was this hunk already applied?", at+1)
			return he
		}
	}
	addNearest(he, m, old, ctxPos, path)
	return he
}

// addNearest fills in he.Nearest, or says that nothing is similar.
func addNearest(he *HunkError, m *matcher, pattern []string, from int, path string) {
	if at, _ := m.nearest(pattern, from); at >= 0 {
		he.Nearest = m.snippet(at, len(pattern))
		he.NearestLine = at + 1
		return
	}
	he.Message += "\nNothing similar was found in " + path + "."
}

// hasAdded reports whether a hunk body adds lines.
func hasAdded(body []hunkLine) bool {
	for _, h := range body {
		if h.kind == addLine {
			return true
		}
	}
	return false
}

// resultPresent reports whether every hunk's result is in place, in
// order: its new side is present where the hunk would go and the old side
// is not there instead (when both match at the same place, as when a hunk
// only appends lines after its context or only deletes lines after it,
// the longer one decides). evidence reports whether some hunk that adds
// lines was found applied: a hunk that only deletes lines proves nothing,
// since its remaining context is there either way.
func resultPresent(m *matcher, chunks []chunk) (ok, evidence bool) {
	pos := 0
	for k := range chunks {
		c := &chunks[k]
		if pos, _, ok = seekContexts(m, c, pos); !ok {
			return false, false
		}
		found := false
		for _, v := range variants(c.body) {
			nw, old := newSide(v), oldSide(v)
			if len(nw) == 0 { // deletes everything it names
				found = m.seek(old, pos, c.eof) < 0
				break
			}
			at := m.seek(nw, pos, c.eof)
			if at < 0 || len(old) > len(nw) && m.matchesAt(old, at) {
				continue
			}
			pos = at + len(nw)
			found = true
			evidence = evidence || hasAdded(v)
			break
		}
		if !found {
			return false, false
		}
	}
	return true, evidence
}
