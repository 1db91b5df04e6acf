package git

import (
	"path"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

const describeUsage = "usage: git describe [--all] [--tags] [--contains] [--abbrev=<n>] [<commit-ish>...]\n" +
	"   or: git describe [--all] [--tags] [--contains] [--abbrev=<n>] --dirty[=<mark>]\n"

var describeOpts = []opt{
	{long: "tags"}, {long: "all"}, {long: "always"}, {long: "long"}, {long: "abbrev", arg: argOptional},
	{long: "dirty", arg: argOptional}, {long: "exact-match"}, {long: "candidates", arg: argRequired},
	{long: "match", arg: argRequired}, {long: "exclude", arg: argRequired}, {long: "first-parent"},
	{long: "contains"}, {long: "broken", arg: argOptional}, {long: "debug"},
}

// describeName is a tag that can name a commit. prio ranks names on the
// same commit as git does: an annotated tag (2) over a lightweight one (1).
type describeName struct {
	name string
	prio int
	date int64 // an annotated tag's tagger date
}

// describeCandidate is a tag met on the walk from the commit described.
type describeCandidate struct {
	name  *describeName
	depth int    // commits walked that the tag's commit does not reach
	flag  uint32 // marks the tag's commit and its ancestors
	order int
}

// cmdDescribe is git describe: the newest tag that reaches a commit, the
// number of commits since, and the commit's abbreviation, chosen by git's
// own walk (newest committer date first, at most --candidates tags, the
// fewest commits since, the first met on a tie).
func cmdDescribe(x *cli, args []string) int {
	f, err := parseOpts(args, describeOpts, describeUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if o := f.refuse("all", "contains", "broken", "debug"); o != "" {
		return x.notSupported("describe", o)
	}
	abbrev := 7
	if f.has("abbrev") {
		if v := f.str("abbrev"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return x.fatal("option `abbrev' expects a numerical value")
			}
			abbrev = n
		}
		if abbrev != 0 {
			abbrev = min(max(abbrev, 4), 40)
		}
	}
	candidates := 10
	if f.has("candidates") {
		n, err := strconv.Atoi(f.str("candidates"))
		if err != nil {
			return x.fatal("option `candidates' expects a numerical value")
		}
		candidates = min(max(n, 0), 10)
	}
	if f.has("exact-match") {
		candidates = 0
	}
	dirty := ""
	if _, ok := f.vals["dirty"]; ok && !f.negated("dirty") {
		if len(f.pos) > 0 {
			return x.fatal("option '--dirty' and commit-ishes cannot be used together")
		}
		dirty = "-dirty"
		if v := f.str("dirty"); v != "" {
			dirty = v
		}
		st, err := x.state(nil, "no")
		if err != nil {
			return x.fail(err)
		}
		if len(st.changes) == 0 {
			dirty = ""
		}
	}
	revs := f.pos
	if len(revs) == 0 {
		revs = []string{"HEAD"}
	}
	d := &describer{x: x, tags: f.has("tags"), long: f.has("long"), always: f.has("always"),
		firstParent: f.has("first-parent"), abbrev: abbrev, candidates: candidates, suffix: dirty}
	d.loadNames(f.all("match"), f.all("exclude"))
	for _, r := range revs {
		h, err := x.revAny(r)
		if err == nil {
			h, err = x.peelCommit(h)
		}
		if err != nil {
			return x.fatal("Not a valid object name %s", r)
		}
		if code := d.describe(h); code != 0 {
			return code
		}
	}
	return 0
}

type describer struct {
	x                               *cli
	tags, long, always, firstParent bool
	abbrev, candidates              int
	suffix                          string
	names                           map[plumbing.Hash]*describeName
}

// loadNames reads the tags, keeping per commit the one git would show.
func (d *describer) loadNames(match, exclude []string) {
	d.names = map[plumbing.Hash]*describeName{}
	for _, r := range d.x.refs("refs/tags/") {
		short := r.Name().Short()
		if !globAny(match, short, true) || globAny(exclude, short, false) {
			continue
		}
		n := &describeName{name: short, prio: 1}
		target := r.Hash()
		for {
			t, err := d.x.r.TagObject(target)
			if err != nil {
				break
			}
			if n.prio == 1 {
				n.prio, n.date = 2, t.Tagger.When.Unix()
			}
			target = t.Target
		}
		if _, err := d.x.r.CommitObject(target); err != nil {
			continue // a tag of a tree or a blob names no commit
		}
		if e, ok := d.names[target]; ok && !(e.prio < n.prio || e.prio == 2 && n.prio == 2 && e.date < n.date) {
			continue
		}
		d.names[target] = n
	}
}

// globAny reports whether name matches one of patterns (empty: def).
func globAny(patterns []string, name string, def bool) bool {
	if len(patterns) == 0 {
		return def
	}
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

func (d *describer) abbrevOf(h plumbing.Hash) string {
	if d.abbrev == 0 {
		return h.String()
	}
	return h.String()[:d.abbrev]
}

func (d *describer) describe(h plumbing.Hash) int {
	x := d.x
	if len(d.names) == 0 && !d.always {
		return x.fatal("No names found, cannot describe anything.")
	}
	if n := d.names[h]; n != nil && (d.tags || n.prio == 2) {
		x.printf("%s", n.name)
		if d.long {
			x.printf("-0-g%s", d.abbrevOf(h))
		}
		x.printf("%s\n", d.suffix)
		return 0
	}
	if d.candidates == 0 {
		return x.fatal("no tag exactly matches '%s'", h)
	}

	// git's walk: a list by committer date, each commit carrying the marks
	// of the candidates that reach it.
	flags := map[plumbing.Hash]uint32{}
	seen := map[plumbing.Hash]bool{h: true}
	start, err := x.r.CommitObject(h)
	if err != nil {
		return x.fail(err)
	}
	list := []*object.Commit{start}
	var found []*describeCandidate
	var gaveUp *object.Commit
	annotated, unannotated, walked := 0, 0, 0
	for len(list) > 0 {
		c := list[0]
		list = list[1:]
		walked++
		if n := d.names[c.Hash]; n != nil {
			switch {
			case !d.tags && n.prio < 2:
				unannotated++
			case len(found) < d.candidates:
				t := &describeCandidate{name: n, depth: walked - 1, flag: 1 << (len(found) + 1), order: len(found) + 1}
				found = append(found, t)
				flags[c.Hash] |= t.flag
				if n.prio == 2 {
					annotated++
				}
			default:
				gaveUp = c
			}
		}
		if gaveUp != nil {
			break
		}
		for _, t := range found {
			if flags[c.Hash]&t.flag == 0 {
				t.depth++
			}
		}
		if annotated > 0 && len(list) == 0 {
			break
		}
		if list, err = d.insertParents(list, c, flags, seen); err != nil {
			return x.fail(err)
		}
	}
	if len(found) == 0 {
		switch {
		case d.always:
			x.printf("%s%s\n", d.abbrevOf(h), d.suffix)
			return 0
		case unannotated > 0:
			return x.fatal("No annotated tags can describe '%s'.\nHowever, there were unannotated tags: try --tags.", h)
		}
		return x.fatal("No tags can describe '%s'.\nTry --always, or create some tags.", h)
	}
	best := found[0]
	for _, t := range found[1:] {
		if t.depth < best.depth || t.depth == best.depth && t.order < best.order {
			best = t
		}
	}
	if gaveUp != nil {
		list = insertByDate(list, gaveUp)
	}
	// Finish counting for the best: walk until every commit left is one
	// it reaches.
	for len(list) > 0 {
		c := list[0]
		list = list[1:]
		if flags[c.Hash]&best.flag != 0 {
			covered := true
			for _, o := range list {
				if flags[o.Hash]&best.flag == 0 {
					covered = false
					break
				}
			}
			if covered {
				break
			}
		} else {
			best.depth++
		}
		if list, err = d.insertParents(list, c, flags, seen); err != nil {
			return x.fail(err)
		}
	}
	x.printf("%s", best.name.name)
	if d.abbrev != 0 {
		x.printf("-%d-g%s", best.depth, d.abbrevOf(h))
	}
	x.printf("%s\n", d.suffix)
	return 0
}

// insertParents queues c's parents not yet seen and hands them c's marks.
func (d *describer) insertParents(list []*object.Commit, c *object.Commit, flags map[plumbing.Hash]uint32, seen map[plumbing.Hash]bool) ([]*object.Commit, error) {
	for i, p := range c.ParentHashes {
		if !seen[p] {
			pc, err := d.x.r.CommitObject(p)
			if err != nil {
				return nil, err
			}
			seen[p] = true
			list = insertByDate(list, pc)
		}
		flags[p] |= flags[c.Hash]
		if d.firstParent && i == 0 {
			break
		}
	}
	return list, nil
}

// insertByDate puts c before the first commit older than it, as git's
// commit_list_insert_by_date does (after those of the same date).
func insertByDate(list []*object.Commit, c *object.Commit) []*object.Commit {
	i := 0
	for i < len(list) && !list[i].Committer.When.Before(c.Committer.When) {
		i++
	}
	list = append(list, nil)
	copy(list[i+1:], list[i:])
	list[i] = c
	return list
}
