package git

import (
	"container/heap"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

var logOpts = append([]opt{
	{short: 'n', long: "max-count", arg: argRequired}, {long: "oneline"}, {long: "format", arg: argRequired},
	{long: "pretty", arg: argOptional}, {long: "graph"}, {long: "all"}, {long: "author", arg: argRequired},
	{long: "grep", arg: argRequired}, {long: "skip", arg: argRequired}, {long: "reverse"}, {long: "first-parent"},
	{long: "merges"}, {long: "no-merges", key: "no-merges"}, {long: "decorate", arg: argOptional},
	{long: "no-decorate", key: "no-decorate"}, {long: "abbrev-commit"}, {long: "no-abbrev-commit", key: "no-abbrev-commit"},
	{short: 'i', long: "regexp-ignore-case"}, {long: "date", arg: argRequired}, {long: "topo-order"}, {long: "date-order"},
	{long: "follow"}, {long: "since", arg: argRequired}, {long: "until", arg: argRequired}, {long: "after", key: "since", arg: argRequired},
	{long: "before", key: "until", arg: argRequired}, {long: "branches"}, {long: "tags"},
}, diffOpts...)

// logFmt is a pretty format.
type logFmt struct {
	kind      string // "medium", "oneline", "short", "full", "fuller", "format", "raw"
	tmpl      string
	separator bool // format: (separator) rather than tformat: (terminator)
	abbrev    bool
	date      string
}

func parsePretty(s string) (*logFmt, error) {
	switch {
	case strings.HasPrefix(s, "format:"):
		return &logFmt{kind: "format", tmpl: s[7:], separator: true}, nil
	case strings.HasPrefix(s, "tformat:"):
		return &logFmt{kind: "format", tmpl: s[8:]}, nil
	case s == "" || s == "medium":
		return &logFmt{kind: "medium"}, nil
	case s == "oneline", s == "short", s == "full", s == "fuller", s == "raw":
		return &logFmt{kind: s}, nil
	case strings.Contains(s, "%"):
		return &logFmt{kind: "format", tmpl: s}, nil
	}
	return nil, fatalf("invalid --pretty format: %s", s)
}

// walker lists commits as git's revision walk does: newest committer
// date first, ties in the order found.
type walkItem struct {
	c   *object.Commit
	seq int
}
type walkQueue []walkItem

func (q walkQueue) Len() int { return len(q) }
func (q walkQueue) Less(i, j int) bool {
	ti, tj := q[i].c.Committer.When.Unix(), q[j].c.Committer.When.Unix()
	if ti != tj {
		return ti > tj
	}
	return q[i].seq < q[j].seq
}
func (q walkQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *walkQueue) Push(v any)   { *q = append(*q, v.(walkItem)) }
func (q *walkQueue) Pop() any {
	old := *q
	v := old[len(old)-1]
	*q = old[:len(old)-1]
	return v
}

type walkOpts struct {
	include, exclude []plumbing.Hash
	firstParent      bool
	ps               *pathspec
	topo             bool
	// simplified, when set, receives every commit the walk went through,
	// shown or not, in walk order, each with the parents the history
	// simplification left it (a merge TREESAME to a parent keeps only
	// that one), and treesame the ones the pathspec hid: what git's
	// topological sort and parent rewriting work on.
	simplified *[]*object.Commit
	treesame   map[plumbing.Hash]bool
}

// walk returns the commits reachable from include and not from exclude,
// limited by pathspec with git's history simplification.
func (x *cli) walk(o walkOpts, visit func(*object.Commit) bool) error {
	excluded := map[plumbing.Hash]bool{}
	if len(o.exclude) > 0 {
		var stack []plumbing.Hash
		stack = append(stack, o.exclude...)
		for len(stack) > 0 {
			h := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if excluded[h] {
				continue
			}
			excluded[h] = true
			c, err := x.r.CommitObject(h)
			if err != nil {
				continue
			}
			stack = append(stack, c.ParentHashes...)
		}
	}
	q := &walkQueue{}
	seen := map[plumbing.Hash]bool{}
	seq := 0
	push := func(h plumbing.Hash) error {
		if seen[h] || excluded[h] {
			return nil
		}
		seen[h] = true
		c, err := x.r.CommitObject(h)
		if err != nil {
			return err
		}
		if x.shallow()[h] {
			// A shallow clone's boundary: git shows it without parents.
			c.ParentHashes = nil
		}
		seq++
		heap.Push(q, walkItem{c, seq})
		return nil
	}
	for _, h := range o.include {
		if err := push(h); err != nil {
			return err
		}
	}
	treeCache := map[plumbing.Hash]flat{}
	filesOf := func(c *object.Commit) flat {
		if f, ok := treeCache[c.TreeHash]; ok {
			return f
		}
		f, _ := x.r.treeFlat(c.TreeHash)
		out := flat{}
		for n, v := range f {
			if o.ps.match(n) {
				out[n] = v
			}
		}
		treeCache[c.TreeHash] = out
		return out
	}
	same := func(a, b flat) bool {
		if len(a) != len(b) {
			return false
		}
		for n, v := range a {
			if b[n] != v {
				return false
			}
		}
		return true
	}
	for q.Len() > 0 {
		it := heap.Pop(q).(walkItem)
		c := it.c
		parents := c.ParentHashes
		if o.firstParent && len(parents) > 1 {
			parents = parents[:1]
		}
		show := true
		if !o.ps.empty() {
			mine := filesOf(c)
			if len(parents) == 0 {
				show = len(mine) > 0
			} else {
				treesame := -1
				for i, p := range parents {
					pc, err := x.r.CommitObject(p)
					if err != nil {
						return err
					}
					if same(mine, filesOf(pc)) {
						treesame = i
						break
					}
				}
				if treesame >= 0 {
					show = false
					if len(parents) > 1 {
						parents = parents[treesame : treesame+1]
					}
				}
			}
		}
		if o.simplified != nil {
			cp := *c
			cp.ParentHashes = parents
			*o.simplified = append(*o.simplified, &cp)
			if !show {
				o.treesame[c.Hash] = true
			}
		}
		if show && !visit(c) {
			return nil
		}
		for _, p := range parents {
			if err := push(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// decorations maps commits to their ref names, as %d shows them.
func (x *cli) decorations() map[plumbing.Hash][]string {
	out := map[plumbing.Hash][]string{}
	branch, head := x.head()
	var heads, tags, others []*plumbing.Reference
	for _, r := range x.refs("refs/") {
		switch {
		case r.Name().IsBranch():
			heads = append(heads, r)
		case r.Name().IsTag():
			tags = append(tags, r)
		case r.Name().IsRemote():
			others = append(others, r)
		}
	}
	add := func(h plumbing.Hash, s string) { out[h] = append(out[h], s) }
	if !head.IsZero() {
		if branch != "" {
			add(head, "HEAD -> "+branch)
		} else {
			add(head, "HEAD")
		}
	}
	for _, r := range heads {
		if r.Name().Short() == branch {
			continue
		}
		add(r.Hash(), r.Name().Short())
	}
	for _, r := range others {
		add(r.Hash(), r.Name().Short())
	}
	for _, r := range tags {
		h, err := x.peelCommit(r.Hash())
		if err != nil {
			continue
		}
		add(h, "tag: "+r.Name().Short())
	}
	// git sorts each commit's names: HEAD first, then by ref order
	// (heads, remotes, tags) as above; branches among themselves by name.
	return out
}

func cmdLog(x *cli, args []string) int { return x.logLike(args, false) }

// logLike serves log and show's walk of commits.
func (x *cli) logLike(args []string, show bool) int {
	usage := "usage: git log [<options>] [<revision-range>] [[--] <path>...]\n"
	if show {
		usage = "usage: git show [<options>] <object>...\n"
	}
	f, err := parseOpts(args, logOpts, usage, false, "max-count")
	if err != nil {
		var ue *usageErr
		if errorsAs(err, &ue) {
			for _, a := range args {
				if a == "--" {
					break
				}
				if strings.HasPrefix(a, "-") && !knownLogArg(a) {
					if strings.HasSuffix(ue.msg, "requires a value") {
						break
					}
					return x.fatal("unrecognized argument: %s", a)
				}
			}
			if strings.Contains(ue.msg, "`n'") || strings.Contains(ue.msg, "max-count") {
				x.eprintf("error: -n requires an argument\n")
				return 128
			}
		}
		return x.fail(err)
	}
	lf := &logFmt{kind: "medium"}
	if f.has("oneline") {
		lf = &logFmt{kind: "oneline", abbrev: true}
	}
	for _, k := range f.order {
		switch k {
		case "format":
			if lf, err = parsePretty(f.str("format")); err != nil {
				return x.fail(err)
			}
		case "pretty":
			if lf, err = parsePretty(f.str("pretty")); err != nil {
				return x.fail(err)
			}
		case "oneline":
			lf = &logFmt{kind: "oneline", abbrev: true}
		}
	}
	if f.has("abbrev-commit") {
		lf.abbrev = true
	}
	if f.has("no-abbrev-commit") {
		lf.abbrev = false
	}
	if f.has("date") {
		lf.date = f.str("date")
	}
	d, err := x.diffFormatOf(f, show)
	if err != nil {
		return x.fail(err)
	}
	if show && f.has("no-patch") {
		d.patch = false
	}
	var include, exclude []plumbing.Hash
	var revs, paths []string
	for i, p := range f.pos {
		isRev := false
		if strings.Contains(p, "..") || strings.HasPrefix(p, "^") {
			isRev = true
		} else if _, err := x.revAny(p); err == nil {
			isRev = true
		} else if show && strings.Contains(p, ":") {
			isRev = true
		}
		if isRev && len(paths) == 0 {
			revs = append(revs, p)
			continue
		}
		if f.dashdash {
			return x.fatal("bad revision '%s'", p)
		}
		if _, err := x.fs().Lstat(x.ctx(), path.Join(x.cwd, p)); err != nil {
			return x.fail(ambiguous(p))
		}
		paths = append(paths, f.pos[i:]...)
		break
	}
	paths = append(paths, f.paths...)
	ps, err := x.spec(paths)
	if err != nil {
		return x.fail(err)
	}
	if show {
		if len(revs) == 0 {
			revs = []string{"HEAD"}
			if branch, h := x.head(); h.IsZero() {
				if branch == "" {
					branch = "HEAD"
				}
				return x.fatal("your current branch '%s' does not have any commits yet", branch)
			}
		}
		return x.showObjects(revs, f, lf, d, ps)
	}
	inc, exc, err := x.revRange(revs)
	if err != nil {
		return x.fail(err)
	}
	include, exclude = append(include, inc...), append(exclude, exc...)
	if f.has("all") || f.has("branches") || f.has("tags") {
		for _, r := range x.refs("refs/") {
			if (f.has("branches") && !r.Name().IsBranch()) || (f.has("tags") && !r.Name().IsTag()) {
				if !f.has("all") {
					continue
				}
			}
			if h, err := x.peelCommit(r.Hash()); err == nil {
				include = append(include, h)
			}
		}
		if f.has("all") {
			if _, h := x.head(); !h.IsZero() {
				include = append(include, h)
			}
		}
	}
	if len(revs) == 0 && !f.has("all") && !f.has("branches") && !f.has("tags") {
		branch, h := x.head()
		if h.IsZero() {
			if branch == "" {
				branch = "HEAD"
			}
			return x.fatal("your current branch '%s' does not have any commits yet", branch)
		}
		include = append(include, h)
	}
	max := -1
	if f.has("max-count") {
		max = atoiOr(f.str("max-count"), -2)
		if max == -2 {
			return x.fatal("'%s': not an integer", f.str("max-count"))
		}
	}
	skip := atoiOr(f.str("skip"), 0)
	var authorRE, grepRE *regexp.Regexp
	ci := ""
	if f.has("regexp-ignore-case") {
		ci = "(?i)"
	}
	if f.has("author") {
		if authorRE, err = regexp.Compile(ci + f.str("author")); err != nil {
			return x.fatal("invalid regular expression: %s", f.str("author"))
		}
	}
	if f.has("grep") {
		if grepRE, err = regexp.Compile(ci + f.str("grep")); err != nil {
			return x.fatal("invalid regular expression: %s", f.str("grep"))
		}
	}
	var since, until time.Time
	for k, p := range map[string]*time.Time{"since": &since, "until": &until} {
		if f.has(k) {
			t, ok := x.approxDate(f.str(k))
			if !ok {
				return x.fatal("nook's git does not understand the date '%s' (use 2026-01-02, an RFC 3339 time or \"N days ago\")", f.str(k))
			}
			*p = t
		}
	}
	graph := f.has("graph")
	if graph && f.has("reverse") {
		return x.fatal("options '--reverse' and '--graph' cannot be used together")
	}
	topo := graph || f.has("topo-order") || f.has("date-order")
	var list []*object.Commit
	wo := walkOpts{include: include, exclude: exclude, firstParent: f.has("first-parent"), ps: ps}
	var simplified []*object.Commit
	if topo && !ps.empty() {
		wo.simplified, wo.treesame = &simplified, map[plumbing.Hash]bool{}
	}
	err = x.walk(wo, func(c *object.Commit) bool {
		if f.has("merges") && len(c.ParentHashes) < 2 || f.has("no-merges") && len(c.ParentHashes) > 1 {
			return true
		}
		if authorRE != nil && !authorRE.MatchString(c.Author.Name+" <"+c.Author.Email+">") {
			return true
		}
		if grepRE != nil && !grepRE.MatchString(c.Message) {
			return true
		}
		if !since.IsZero() && c.Committer.When.Before(since) || !until.IsZero() && c.Committer.When.After(until) {
			return true
		}
		if d.filter != nil && !x.changesKept(c, d, ps) {
			return true
		}
		if topo {
			list = append(list, c)
			return true
		}
		if skip > 0 {
			skip--
			return true
		}
		if max >= 0 && len(list) >= max {
			return false
		}
		list = append(list, c)
		return true
	})
	if err != nil {
		return x.fail(err)
	}
	var g *logGraph
	if topo {
		shown := make(map[plumbing.Hash]bool, len(list))
		for _, c := range list {
			shown[c.Hash] = true
		}
		if wo.simplified != nil {
			// As git does for a path-limited history: the sort is of
			// every commit walked, with the parents simplification left
			// them, and then the commits the pathspec hid drop out.
			list = list[:0]
			for _, c := range topoSort(simplified, f.has("date-order")) {
				if shown[c.Hash] {
					list = append(list, c)
				}
			}
		} else {
			list = topoSort(list, f.has("date-order"))
		}
		if skip > len(list) {
			skip = len(list)
		}
		list = list[skip:]
		if max >= 0 && max < len(list) {
			list = list[:max]
		}
		if graph {
			g = newLogGraph(func(h plumbing.Hash) bool { return shown[h] }, f.has("first-parent"))
			if wo.simplified != nil {
				// The commits are the walk's copies: they print their
				// rewritten parents (Merge:, %P) as git's do.
				g.rewritten = rewriteParents(simplified, wo.treesame, list)
				for _, c := range list {
					c.ParentHashes = g.rewritten[c.Hash]
				}
			}
		}
	}
	if f.has("reverse") {
		for i, j := 0, len(list)-1; i < j; i, j = i+1, j-1 {
			list[i], list[j] = list[j], list[i]
		}
	}
	var deco map[plumbing.Hash][]string
	if v := f.str("decorate"); f.has("decorate") && v != "no" || strings.Contains(lf.tmpl, "%d") || strings.Contains(lf.tmpl, "%D") {
		deco = x.decorations()
	}
	showDeco := f.has("decorate") && f.str("decorate") != "no"
	if g != nil {
		for i, c := range list {
			x.printGraphCommit(g, c, lf, d, deco, showDeco, i == 0, ps)
		}
		return 0
	}
	for i, c := range list {
		x.printCommit(c, lf, d, deco, showDeco, i == 0, i == len(list)-1, false, ps)
	}
	return 0
}

// approxDate reads a --since/--until date: absolute (2026-01-02, RFC 3339,
// @seconds) or "N units ago".
func (x *cli) approxDate(s string) (time.Time, bool) {
	if t, err := parseDate(s); err == nil {
		return t, true
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t, true
	}
	f := strings.Fields(strings.ReplaceAll(s, ".", " "))
	if len(f) == 3 && f[2] == "ago" {
		n, err := strconv.Atoi(f[0])
		if err != nil {
			return time.Time{}, false
		}
		unit := map[string]time.Duration{"second": time.Second, "minute": time.Minute, "hour": time.Hour,
			"day": 24 * time.Hour, "week": 7 * 24 * time.Hour, "month": 30 * 24 * time.Hour, "year": 365 * 24 * time.Hour}[strings.TrimSuffix(f[1], "s")]
		if unit == 0 {
			return time.Time{}, false
		}
		return x.now().Add(-time.Duration(n) * unit), true
	}
	return time.Time{}, false
}

func orHead(s string) string {
	if s == "" {
		return "HEAD"
	}
	return s
}

func knownLogArg(a string) bool {
	name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
	if strings.HasPrefix(a, "--") {
		o, _, _ := findLong(logOpts, name)
		return o != nil
	}
	if isDigits(name) {
		return true
	}
	for i := 0; i < len(name); i++ {
		o := findShort(logOpts, name[i])
		if o == nil {
			return false
		}
		if o.arg != argNone {
			return true
		}
	}
	return true
}

// printCommit prints one commit of log or show in lf, with its diff.
func (x *cli) printCommit(c *object.Commit, lf *logFmt, d *diffFormat, deco map[plumbing.Hash][]string, showDeco, first, last, graph bool, ps *pathspec) {
	var b strings.Builder
	head := x.commitHead(c, lf, deco, showDeco)
	combined := len(c.ParentHashes) > 1 && d.cc && d.patch && !d.stat && !d.shortstat && !d.numstat && !d.nameOnly && !d.nameStatus && !d.summary
	// A merge has a diff only when it is combined.
	hasDiff := d.hasOutput() && (len(c.ParentHashes) <= 1 || combined)
	switch lf.kind {
	case "oneline":
		b.WriteString(head + "\n")
	case "format":
		s := head
		if lf.separator {
			if !first {
				s = "\n" + s
			}
			if hasDiff {
				s += "\n"
			}
		} else {
			s += "\n"
			if hasDiff {
				s += "\n"
			}
		}
		b.WriteString(s)
	default:
		if !first {
			b.WriteString("\n")
		}
		b.WriteString(head)
	}
	if diffText := x.commitDiffText(c, d, ps); diffText != "" || combined {
		// git shows a blank line after a merge's message whenever it
		// combines its diff, even when no path is left to show.
		if lf.kind != "format" && (lf.kind != "oneline" || combined) {
			b.WriteString("\n")
		}
		b.WriteString(diffText)
	}
	x.out.WriteString(b.String())
}

// hasOutput reports whether d prints anything for a commit.
func (d *diffFormat) hasOutput() bool {
	return d.patch || d.stat || d.shortstat || d.numstat || d.nameOnly || d.nameStatus || d.summary
}

// commitHead is a commit's text in lf: for oneline and --format without
// the final newline, for the other formats through the message's newline.
func (x *cli) commitHead(c *object.Commit, lf *logFmt, deco map[plumbing.Hash][]string, showDeco bool) string {
	var b strings.Builder
	hash := c.Hash.String()
	if lf.abbrev {
		hash = shortHash(c.Hash)
	}
	decoText := ""
	if showDeco && len(deco[c.Hash]) > 0 {
		decoText = " (" + strings.Join(deco[c.Hash], ", ") + ")"
	}
	switch lf.kind {
	case "oneline":
		fmt.Fprintf(&b, "%s%s %s", hash, decoText, oneLineSubject(c.Message))
	case "format":
		b.WriteString(x.expand(lf.tmpl, c, deco, lf))
	default:
		fmt.Fprintf(&b, "commit %s%s\n", hash, decoText)
		if len(c.ParentHashes) > 1 {
			var ps []string
			for _, p := range c.ParentHashes {
				ps = append(ps, shortHash(p))
			}
			fmt.Fprintf(&b, "Merge: %s\n", strings.Join(ps, " "))
		}
		switch lf.kind {
		case "medium":
			fmt.Fprintf(&b, "Author: %s <%s>\nDate:   %s\n", c.Author.Name, c.Author.Email, formatDate(c.Author.When, lf.date))
		case "short":
			fmt.Fprintf(&b, "Author: %s <%s>\n", c.Author.Name, c.Author.Email)
		case "full":
			fmt.Fprintf(&b, "Author: %s <%s>\nCommit: %s <%s>\n", c.Author.Name, c.Author.Email, c.Committer.Name, c.Committer.Email)
		case "fuller":
			fmt.Fprintf(&b, "Author:     %s <%s>\nAuthorDate: %s\nCommit:     %s <%s>\nCommitDate: %s\n", c.Author.Name, c.Author.Email,
				formatDate(c.Author.When, lf.date), c.Committer.Name, c.Committer.Email, formatDate(c.Committer.When, lf.date))
		}
		b.WriteString("\n")
		msg := strings.TrimRight(c.Message, "\n")
		if lf.kind == "short" {
			msg = oneLineSubject(c.Message)
		}
		for _, l := range strings.Split(msg, "\n") {
			fmt.Fprintf(&b, "    %s\n", l)
		}
	}
	return b.String()
}

// commitDiffText is the diff log and show print after a non-merge commit.
func (x *cli) commitDiffText(c *object.Commit, d *diffFormat, ps *pathspec) string {
	if !d.hasOutput() {
		return ""
	}
	if len(c.ParentHashes) > 1 {
		if d.cc && d.patch && !d.stat && !d.shortstat && !d.numstat && !d.nameOnly && !d.nameStatus && !d.summary {
			return x.mergeCombined(c, ps, d.ctx)
		}
		return ""
	}
	var from flat
	if len(c.ParentHashes) == 1 {
		from, _ = x.r.commitFlat(c.ParentHashes[0])
	} else {
		from = flat{}
	}
	to, _ := x.r.treeFlat(c.TreeHash)
	pairs := x.diffPairs(from, to, ps, d.renames)
	save := x.out
	x.out = strings.Builder{}
	x.render(pairs, d)
	diffText := x.out.String()
	x.out = save
	return diffText
}

// printGraphCommit prints one commit of log --graph: the graph's lines
// down to the commit's, its text with the graph before every line, then
// its diff with the graph's padding before every line.
func (x *cli) printGraphCommit(g *logGraph, c *object.Commit, lf *logFmt, d *diffFormat, deco map[plumbing.Hash][]string, showDeco, first bool, ps *pathspec) {
	var b strings.Builder
	g.update(c)
	head := x.commitHead(c, lf, deco, showDeco)
	terminator := lf.kind == "oneline" || lf.kind == "format" && !lf.separator
	if !first && !terminator {
		if lf.kind != "format" {
			b.WriteString(g.padding())
		}
		b.WriteString("\n")
	}
	b.WriteString(g.showCommit())
	b.WriteString(g.showMsg(head))
	if terminator {
		if strings.HasSuffix(head, "\n") {
			b.WriteString(g.padding())
		}
		b.WriteString("\n")
	}
	diffText := x.commitDiffText(c, d, ps)
	if lf.kind != "oneline" && diffText != "" {
		b.WriteString(g.padding() + "\n")
	}
	b.WriteString(g.prefixLines(diffText))
	x.out.WriteString(b.String())
}

func formatDate(t time.Time, style string) string {
	switch style {
	case "short":
		return t.Format("2006-01-02")
	case "iso", "iso8601":
		return t.Format("2006-01-02 15:04:05 -0700")
	case "iso-strict", "iso8601-strict":
		return t.Format("2006-01-02T15:04:05-07:00")
	case "unix":
		return strconv.FormatInt(t.Unix(), 10)
	case "raw":
		return fmt.Sprintf("%d %s", t.Unix(), t.Format("-0700"))
	case "rfc", "rfc2822":
		return t.Format("Mon, 2 Jan 2006 15:04:05 -0700")
	}
	return gitDate(t)
}

// expand fills a --format template.
func (x *cli) expand(tmpl string, c *object.Commit, deco map[plumbing.Hash][]string, lf *logFmt) string {
	var b strings.Builder
	subj := oneLineSubject(c.Message)
	body := ""
	if _, rest, ok := strings.Cut(strings.TrimLeft(c.Message, "\n"), "\n\n"); ok {
		body = strings.TrimLeft(rest, "\n")
	}
	person := func(p object.Signature, k byte) (string, bool) {
		switch k {
		case 'n':
			return p.Name, true
		case 'e':
			return p.Email, true
		case 'l':
			l, _, _ := strings.Cut(p.Email, "@")
			return l, true
		case 'd':
			return formatDate(p.When, lf.date), true
		case 'D':
			return p.When.Format("Mon, 2 Jan 2006 15:04:05 -0700"), true
		case 't':
			return strconv.FormatInt(p.When.Unix(), 10), true
		case 'i':
			return p.When.Format("2006-01-02 15:04:05 -0700"), true
		case 'I':
			return p.When.Format("2006-01-02T15:04:05-07:00"), true
		case 's':
			return p.When.Format("2006-01-02"), true
		case 'r':
			return relativeDate(p.When, x.now()), true
		}
		return "", false
	}
	for i := 0; i < len(tmpl); i++ {
		ch := tmpl[i]
		if ch != '%' || i+1 >= len(tmpl) {
			b.WriteByte(ch)
			continue
		}
		i++
		switch k := tmpl[i]; k {
		case '%':
			b.WriteByte('%')
		case 'n':
			b.WriteByte('\n')
		case 'H':
			b.WriteString(c.Hash.String())
		case 'h':
			b.WriteString(shortHash(c.Hash))
		case 'T':
			b.WriteString(c.TreeHash.String())
		case 't':
			b.WriteString(shortHash(c.TreeHash))
		case 'P', 'p':
			var ps []string
			for _, p := range c.ParentHashes {
				if k == 'P' {
					ps = append(ps, p.String())
				} else {
					ps = append(ps, shortHash(p))
				}
			}
			b.WriteString(strings.Join(ps, " "))
		case 's':
			b.WriteString(subj)
		case 'b':
			b.WriteString(body)
		case 'B':
			b.WriteString(c.Message)
		case 'd':
			if len(deco[c.Hash]) > 0 {
				b.WriteString(" (" + strings.Join(deco[c.Hash], ", ") + ")")
			}
		case 'D':
			b.WriteString(strings.Join(deco[c.Hash], ", "))
		case 'x':
			if i+2 < len(tmpl) {
				if v, err := strconv.ParseUint(tmpl[i+1:i+3], 16, 8); err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteString("%x")
		case 'a', 'c':
			p := c.Author
			if k == 'c' {
				p = c.Committer
			}
			if i+1 < len(tmpl) {
				if v, ok := person(p, tmpl[i+1]); ok {
					b.WriteString(v)
					i++
					continue
				}
			}
			b.WriteByte('%')
			b.WriteByte(k)
		case 'C':
			// Colours: %Cred, %Cgreen, %Cblue, %Creset, %C(...): off
			// when output is not a terminal.
			rest := tmpl[i+1:]
			for _, n := range []string{"red", "green", "blue", "reset"} {
				if strings.HasPrefix(rest, n) {
					i += len(n)
					break
				}
			}
			if strings.HasPrefix(rest, "(") {
				if j := strings.IndexByte(rest, ')'); j >= 0 {
					i += j + 1
				}
			}
		default:
			b.WriteByte('%')
			b.WriteByte(k)
		}
	}
	return b.String()
}

// relativeDate is git's "N units ago".
func relativeDate(t, now time.Time) string {
	d := now.Sub(t)
	s := int64(d.Seconds())
	if s < 0 {
		return "in the future"
	}
	unit := func(n int64, u string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s ago", n, u)
		}
		return fmt.Sprintf("%d %ss ago", n, u)
	}
	switch {
	case s < 90:
		return unit(s, "second")
	case s < 90*60:
		return unit((s+30)/60, "minute")
	case s < 36*3600:
		return unit((s+1800)/3600, "hour")
	case s < 14*86400:
		return unit((s+43200)/86400, "day")
	case s < 70*86400:
		return unit((s+3*86400)/(7*86400), "week")
	case s < 365*86400:
		return unit((s+15*86400)/(30*86400), "month")
	}
	return unit((s+183*86400)/(365*86400), "year")
}

// showObjects is git show: commits with their diff, tags, trees, blobs.
func (x *cli) showObjects(revs []string, f *flags, lf *logFmt, d *diffFormat, ps *pathspec) int {
	var deco map[plumbing.Hash][]string
	if strings.Contains(lf.tmpl, "%d") || strings.Contains(lf.tmpl, "%D") || f.has("decorate") {
		deco = x.decorations()
	}
	for i, r := range revs {
		if strings.Contains(r, ":") {
			t, err := x.blobAt(r)
			if err != nil {
				return x.fail(err)
			}
			data, err := x.r.readBlob(t.hash)
			if err != nil {
				return x.fail(err)
			}
			x.out.Write(data)
			continue
		}
		h, err := x.revAny(r)
		if err != nil {
			return x.fail(err)
		}
		o, err := x.r.Storer.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return x.fail(err)
		}
		switch o.Type() {
		case plumbing.TagObject:
			t, err := x.r.TagObject(h)
			if err != nil {
				return x.fail(err)
			}
			x.printf("tag %s\nTagger: %s <%s>\nDate:   %s\n\n%s\n", t.Name, t.Tagger.Name, t.Tagger.Email, gitDate(t.Tagger.When), strings.TrimRight(t.Message, "\n"))
			ch, err := x.peelCommit(h)
			if err != nil {
				return x.fail(err)
			}
			c, err := x.r.CommitObject(ch)
			if err != nil {
				return x.fail(err)
			}
			x.printCommit(c, lf, d, deco, f.has("decorate"), false, true, false, ps)
		case plumbing.CommitObject:
			c, err := x.r.CommitObject(h)
			if err != nil {
				return x.fail(err)
			}
			x.printCommit(c, lf, d, deco, f.has("decorate"), i == 0, i == len(revs)-1, false, ps)
		case plumbing.BlobObject:
			data, _ := x.r.readBlob(h)
			x.out.Write(data)
		case plumbing.TreeObject:
			t, err := x.r.TreeObject(h)
			if err != nil {
				return x.fail(err)
			}
			x.printf("tree %s\n\n", r)
			for _, e := range t.Entries {
				if e.Mode.IsFile() {
					x.printf("%s\n", e.Name)
				} else {
					x.printf("%s/\n", e.Name)
				}
			}
		}
	}
	return 0
}

func cmdShow(x *cli, args []string) int { return x.logLike(args, true) }

func errorsAs(err error, target any) bool { return errors.As(err, target) }

var _ = sort.Strings

// revRange reads revisions as git's revision walk does: A..B, A...B, ^A
// and A, into the commits to include and those to exclude.
func (x *cli) revRange(revs []string) (include, exclude []plumbing.Hash, err error) {
	for _, r := range revs {
		if l, rr, ok := strings.Cut(r, ".."); ok {
			symmetric := strings.HasPrefix(rr, ".")
			rr = strings.TrimPrefix(rr, ".")
			lh, err := x.rev(orHead(l))
			if err != nil {
				return nil, nil, err
			}
			rh, err := x.rev(orHead(rr))
			if err != nil {
				return nil, nil, err
			}
			if !symmetric {
				include, exclude = append(include, rh), append(exclude, lh)
				continue
			}
			include = append(include, lh, rh)
			if b, err := x.r.mergeBase(lh, rh); err == nil {
				exclude = append(exclude, b)
			}
			continue
		}
		h, err := x.rev(strings.TrimPrefix(r, "^"))
		if err != nil {
			return nil, nil, err
		}
		if strings.HasPrefix(r, "^") {
			exclude = append(exclude, h)
		} else {
			include = append(include, h)
		}
	}
	return include, exclude, nil
}

// changesKept reports whether c changes a file of a class --diff-filter
// selects (a merge, whose changes log does not show, changes none).
func (x *cli) changesKept(c *object.Commit, d *diffFormat, ps *pathspec) bool {
	if len(c.ParentHashes) > 1 {
		return false
	}
	from := flat{}
	if len(c.ParentHashes) == 1 {
		from, _ = x.r.commitFlat(c.ParentHashes[0])
	}
	to, _ := x.r.treeFlat(c.TreeHash)
	return len(d.keep(x.diffPairs(from, to, ps, d.renames))) > 0
}

// rewriteParents gives each commit of list the parents git's --graph
// draws for a path-limited history (rewrite_parents): each parent the
// pathspec hid is replaced by its own first simplified parent, until one
// is shown or outside the walk; a hidden root drops out, and a parent
// reached twice is kept once. walked holds every commit the walk went
// through with its simplified parents; treesame, the hidden ones.
func rewriteParents(walked []*object.Commit, treesame map[plumbing.Hash]bool, list []*object.Commit) map[plumbing.Hash][]plumbing.Hash {
	parents := make(map[plumbing.Hash][]plumbing.Hash, len(walked))
	for _, c := range walked {
		parents[c.Hash] = c.ParentHashes
	}
	rewrite := func(p plumbing.Hash) (plumbing.Hash, bool) {
		for {
			ps, in := parents[p]
			if !in || !treesame[p] {
				return p, true
			}
			if len(ps) == 0 {
				return p, false
			}
			next := plumbing.ZeroHash
			for _, q := range ps {
				if _, ok := parents[q]; ok {
					next = q
					break
				}
			}
			if next.IsZero() {
				return p, true
			}
			p = next
		}
	}
	out := make(map[plumbing.Hash][]plumbing.Hash, len(list))
	for _, c := range list {
		var rs []plumbing.Hash
		for _, p := range parents[c.Hash] {
			r, ok := rewrite(p)
			if ok && !slices.Contains(rs, r) {
				rs = append(rs, r)
			}
		}
		out[c.Hash] = rs
	}
	return out
}

// topoSort orders commits (given newest first) so that no commit comes
// before one of its children, as --topo-order and --graph show them: a
// branch's commits together, the last parent of a merge first. With
// byDate, commits whose children are all shown come out newest first.
func topoSort(list []*object.Commit, byDate bool) []*object.Commit {
	in := make(map[plumbing.Hash]int, len(list))
	byHash := make(map[plumbing.Hash]*object.Commit, len(list))
	order := make(map[plumbing.Hash]int, len(list))
	for i, c := range list {
		in[c.Hash] = 1
		byHash[c.Hash] = c
		order[c.Hash] = i
	}
	for _, c := range list {
		for _, p := range c.ParentHashes {
			if in[p] > 0 {
				in[p]++
			}
		}
	}
	var ready []*object.Commit
	for _, c := range list {
		if in[c.Hash] == 1 {
			ready = append(ready, c)
		}
	}
	// ready is a stack: its top is the newest tip.
	for i, j := 0, len(ready)-1; i < j; i, j = i+1, j-1 {
		ready[i], ready[j] = ready[j], ready[i]
	}
	out := make([]*object.Commit, 0, len(list))
	for len(ready) > 0 {
		k := len(ready) - 1
		if byDate {
			for i := range ready {
				a, b := ready[i], ready[k]
				if a.Committer.When.After(b.Committer.When) || a.Committer.When.Equal(b.Committer.When) && order[a.Hash] < order[b.Hash] {
					k = i
				}
			}
		}
		c := ready[k]
		ready = append(ready[:k], ready[k+1:]...)
		for _, p := range c.ParentHashes {
			if in[p] == 0 {
				continue
			}
			in[p]--
			if in[p] == 1 {
				ready = append(ready, byHash[p])
			}
		}
		in[c.Hash] = 0
		out = append(out, c)
	}
	return out
}
