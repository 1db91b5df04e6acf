package git

import (
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// This file draws log --graph the way git's graph drawing does: one
// column per line of history still to be shown, a commit's row, the rows
// that fan out a merge's parents, and the rows that collapse lines which
// meet in a common parent. The state machine and the layout rules follow
// git's documented behaviour so the output agrees byte for byte.

type graphState int

const (
	graphPadding graphState = iota
	graphSkip
	graphPreCommit
	graphCommit
	graphPostMerge
	graphCollapsing
)

// logGraph is the drawing state between commits.
type logGraph struct {
	interesting func(plumbing.Hash) bool
	firstParent bool
	rewritten   map[plumbing.Hash][]plumbing.Hash // parents as drawn, when not the commit's own

	commit          plumbing.Hash
	parents         []plumbing.Hash // the commit's parents that are shown
	width           int
	expansionRow    int
	state           graphState
	prevState       graphState
	commitIndex     int
	prevCommitIndex int
	mergeLayout     int
	edgesAdded      int
	prevEdgesAdded  int
	columns         []plumbing.Hash
	newColumns      []plumbing.Hash
	mapping         []int // screen column -> column in newColumns (-1: none)
	oldMapping      []int
	mappingSize     int
}

func newLogGraph(interesting func(plumbing.Hash) bool, firstParent bool) *logGraph {
	return &logGraph{interesting: interesting, firstParent: firstParent, state: graphPadding, prevState: graphPadding}
}

func (g *logGraph) setState(s graphState) { g.prevState, g.state = g.state, s }

// update starts drawing commit c.
func (g *logGraph) update(c *object.Commit) {
	g.commit = c.Hash
	g.parents = g.parents[:0]
	ps := c.ParentHashes
	if r, ok := g.rewritten[c.Hash]; ok {
		ps = r
	}
	if g.firstParent && len(ps) > 1 {
		ps = ps[:1]
	}
	for _, p := range ps {
		if g.interesting(p) {
			g.parents = append(g.parents, p)
		}
	}
	g.prevCommitIndex = g.commitIndex
	g.updateColumns()
	g.expansionRow = 0
	// prevState keeps the state of the last line drawn: no line was
	// drawn in the state this replaces.
	switch {
	case g.state != graphPadding:
		g.state = graphSkip
	case g.needsPreCommit():
		g.state = graphPreCommit
	default:
		g.state = graphCommit
	}
}

func (g *logGraph) needsPreCommit() bool {
	return len(g.parents) >= 3 && g.commitIndex < len(g.columns)-1 && g.expansionRow < len(g.parents)-2
}

func (g *logGraph) findNew(h plumbing.Hash) int {
	for i, c := range g.newColumns {
		if c == h {
			return i
		}
	}
	return -1
}

func (g *logGraph) updateColumns() {
	g.columns, g.newColumns = g.newColumns, g.columns[:0]
	maxNew := len(g.columns) + len(g.parents)
	size := 2 * maxNew
	for len(g.mapping) < size {
		g.mapping = append(g.mapping, -1)
		g.oldMapping = append(g.oldMapping, -1)
	}
	g.mappingSize = size
	for i := 0; i < size; i++ {
		g.mapping[i] = -1
	}
	g.width = 0
	g.prevEdgesAdded = g.edgesAdded
	g.edgesAdded = 0
	seen := false
	for i := 0; i <= len(g.columns); i++ {
		var col plumbing.Hash
		if i == len(g.columns) {
			if seen {
				break
			}
			col = g.commit
		} else {
			col = g.columns[i]
		}
		if col == g.commit {
			seen = true
			g.commitIndex = i
			g.mergeLayout = -1
			for _, p := range g.parents {
				g.insertNew(p, i)
			}
			if len(g.parents) == 0 {
				g.width += 2
			}
		} else {
			g.insertNew(col, -1)
		}
	}
	for g.mappingSize > 1 && g.mapping[g.mappingSize-1] < 0 {
		g.mappingSize--
	}
}

func (g *logGraph) insertNew(h plumbing.Hash, idx int) {
	i := g.findNew(h)
	if i < 0 {
		i = len(g.newColumns)
		g.newColumns = append(g.newColumns, h)
	}
	var at int
	switch {
	case len(g.parents) > 1 && idx > -1 && g.mergeLayout == -1:
		// The first parent of a merge: lean the merge left when that
		// parent is already in a column to the left.
		dist := idx - i
		shift := 1
		if dist > 1 {
			shift = 2*dist - 3
		}
		g.mergeLayout = 1
		if dist > 0 {
			g.mergeLayout = 0
		}
		g.edgesAdded = len(g.parents) + g.mergeLayout - 2
		at = g.width + (g.mergeLayout-1)*shift
		g.width += 2 * g.mergeLayout
	case g.edgesAdded > 0 && g.width >= 2 && i == g.mapping[g.width-2]:
		// The edge joins the last existing column right away.
		at = g.width - 2
		g.edgesAdded = -1
	default:
		at = g.width
		g.width += 2
	}
	g.mapping[at] = i
}

func (g *logGraph) mappingCorrect() bool {
	for i := 0; i < g.mappingSize; i++ {
		if t := g.mapping[i]; t >= 0 && t != i/2 {
			return false
		}
	}
	return true
}

func (g *logGraph) finished() bool { return g.state == graphPadding }

// next returns the next line of the graph, padded to its width, and
// whether it is the commit's own line.
func (g *logGraph) next() (string, bool) {
	var b strings.Builder
	commitLine := false
	switch g.state {
	case graphPadding:
		for range g.newColumns {
			b.WriteString("| ")
		}
	case graphSkip:
		b.WriteString("...")
		if g.needsPreCommit() {
			g.setState(graphPreCommit)
		} else {
			g.setState(graphCommit)
		}
	case graphPreCommit:
		g.preCommitLine(&b)
	case graphCommit:
		g.commitLine(&b)
		commitLine = true
	case graphPostMerge:
		g.postMergeLine(&b)
	case graphCollapsing:
		g.collapsingLine(&b)
	}
	for b.Len() < g.width {
		b.WriteByte(' ')
	}
	return b.String(), commitLine
}

// padding is the line between two commits' texts: it never draws the
// commit's own line.
func (g *logGraph) padding() string {
	if g.state != graphCommit {
		s, _ := g.next()
		return s
	}
	var b strings.Builder
	for _, c := range g.columns {
		b.WriteByte('|')
		if c == g.commit && len(g.parents) > 2 {
			b.WriteString(strings.Repeat(" ", (len(g.parents)-2)*2))
		} else {
			b.WriteByte(' ')
		}
	}
	for b.Len() < g.width {
		b.WriteByte(' ')
	}
	g.prevState = graphPadding
	return b.String()
}

func (g *logGraph) preCommitLine(b *strings.Builder) {
	seen := false
	for i, c := range g.columns {
		switch {
		case c == g.commit:
			seen = true
			b.WriteByte('|')
			b.WriteString(strings.Repeat(" ", g.expansionRow))
		case seen && g.expansionRow == 0:
			if g.prevState == graphPostMerge && g.prevCommitIndex < i {
				b.WriteByte('\\')
			} else {
				b.WriteByte('|')
			}
		case seen && g.expansionRow > 0:
			b.WriteByte('\\')
		default:
			b.WriteByte('|')
		}
		b.WriteByte(' ')
	}
	g.expansionRow++
	if !g.needsPreCommit() {
		g.setState(graphCommit)
	}
}

func (g *logGraph) commitLine(b *strings.Builder) {
	seen := false
	for i := 0; i <= len(g.columns); i++ {
		var col plumbing.Hash
		if i == len(g.columns) {
			if seen {
				break
			}
			col = g.commit
		} else {
			col = g.columns[i]
		}
		switch {
		case col == g.commit:
			seen = true
			b.WriteByte('*')
			if len(g.parents) > 2 {
				dashed := len(g.parents) + g.mergeLayout - 3
				for k := 0; k < dashed; k++ {
					b.WriteByte('-')
					if k == dashed-1 {
						b.WriteByte('.')
					} else {
						b.WriteByte('-')
					}
				}
			}
		case seen && g.edgesAdded > 1:
			b.WriteByte('\\')
		case seen && g.edgesAdded == 1:
			if g.prevState == graphPostMerge && g.prevEdgesAdded > 0 && g.prevCommitIndex < i {
				b.WriteByte('\\')
			} else {
				b.WriteByte('|')
			}
		case g.prevState == graphCollapsing && 2*i+1 < len(g.oldMapping) && g.oldMapping[2*i+1] == i && 2*i < len(g.mapping) && g.mapping[2*i] < i:
			b.WriteByte('/')
		default:
			b.WriteByte('|')
		}
		b.WriteByte(' ')
	}
	switch {
	case len(g.parents) > 1:
		g.setState(graphPostMerge)
	case g.mappingCorrect():
		g.setState(graphPadding)
	default:
		g.setState(graphCollapsing)
	}
}

func (g *logGraph) postMergeLine(b *strings.Builder) {
	const mergeChars = "/|\\"
	seen := false
	for i := 0; i <= len(g.columns); i++ {
		var col plumbing.Hash
		if i == len(g.columns) {
			if seen {
				break
			}
			col = g.commit
		} else {
			col = g.columns[i]
		}
		switch {
		case col == g.commit:
			seen = true
			idx := g.mergeLayout
			for j := range g.parents {
				b.WriteByte(mergeChars[idx])
				if idx == 2 {
					if g.edgesAdded > 0 || j < len(g.parents)-1 {
						b.WriteByte(' ')
					}
				} else {
					idx++
				}
			}
			if g.edgesAdded == 0 {
				b.WriteByte(' ')
			}
		case seen:
			if g.edgesAdded > 0 {
				b.WriteByte('\\')
			} else {
				b.WriteByte('|')
			}
			b.WriteByte(' ')
		default:
			b.WriteByte('|')
			if g.mergeLayout != 0 || i != g.commitIndex-1 {
				b.WriteByte(' ')
			}
		}
	}
	if g.mappingCorrect() {
		g.setState(graphPadding)
	} else {
		g.setState(graphCollapsing)
	}
}

func (g *logGraph) collapsingLine(b *strings.Builder) {
	usedHorizontal := false
	hEdge, hTarget := -1, -1
	n := g.mappingSize
	g.mapping, g.oldMapping = g.oldMapping, g.mapping
	old := g.oldMapping
	for i := 0; i < n; i++ {
		g.mapping[i] = -1
	}
	for i := 0; i < n; i++ {
		t := old[i]
		if t < 0 {
			continue
		}
		switch {
		case t*2 == i:
			g.mapping[i] = t
		case g.mapping[i-1] < 0:
			g.mapping[i-1] = t
			if hEdge == -1 {
				hEdge, hTarget = i, t
				for j := t*2 + 3; j < i-2; j += 2 {
					g.mapping[j] = t
				}
			}
		case g.mapping[i-1] == t:
			// Shares the line to its left: nothing to draw.
		default:
			g.mapping[i-2] = t
			if hEdge == -1 {
				hEdge, hTarget = i-1, t
				for j := t*2 + 3; j < i-2; j += 2 {
					g.mapping[j] = t
				}
			}
		}
	}
	copy(g.oldMapping[:n], g.mapping[:n])
	if g.mapping[n-1] < 0 {
		g.mappingSize--
	}
	for i := 0; i < g.mappingSize; i++ {
		t := g.mapping[i]
		switch {
		case t < 0:
			b.WriteByte(' ')
		case t*2 == i:
			b.WriteByte('|')
		case t == hTarget && i != hEdge-1:
			if i != t*2+3 {
				g.mapping[i] = -1
			}
			usedHorizontal = true
			b.WriteByte('_')
		default:
			if usedHorizontal && i < hEdge {
				g.mapping[i] = -1
			}
			b.WriteByte('/')
		}
	}
	if g.mappingCorrect() {
		g.setState(graphPadding)
	}
}

// showCommit returns the graph lines up to and including the commit's
// own line (without its newline), which the commit's text follows.
func (g *logGraph) showCommit() string {
	var b strings.Builder
	if g.finished() {
		b.WriteString(g.padding())
		return b.String()
	}
	for !g.finished() {
		s, isCommit := g.next()
		b.WriteString(s)
		if isCommit {
			break
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// showMsg returns text with the graph before every line but the first,
// then the rest of the commit's graph lines.
func (g *logGraph) showMsg(text string) string {
	var b strings.Builder
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if l == "" {
			continue
		}
		b.WriteString(l)
		if strings.HasSuffix(l, "\n") && i+1 < len(lines) && lines[i+1] != "" {
			s, _ := g.next()
			b.WriteString(s)
		}
	}
	if !g.finished() {
		nl := strings.HasSuffix(text, "\n")
		if !nl {
			b.WriteByte('\n')
		}
		for {
			s, _ := g.next()
			b.WriteString(s)
			if g.finished() {
				break
			}
			b.WriteByte('\n')
		}
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// prefixLines puts the graph's padding before every line of a diff.
func (g *logGraph) prefixLines(text string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		b.WriteString(g.padding())
		b.WriteString(l)
	}
	return b.String()
}
