package git

import (
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"
)

const shortlogUsage = "usage: git shortlog [<options>] [<revision-range>] [[--] <path>...]\n" +
	"   or: git log --pretty=short | git shortlog [<options>]\n"

var shortlogOpts = []opt{
	{short: 's', long: "summary"}, {short: 'n', long: "numbered"}, {short: 'e', long: "email"},
	{short: 'c', long: "committer"}, {long: "no-merges", key: "no-merges"}, {long: "merges"},
	{long: "all"}, {long: "first-parent"}, {short: 'w', arg: argOptional}, {long: "format", arg: argRequired},
	{long: "group", arg: argRequired},
}

// cmdShortlog is git shortlog: commits grouped by author (or committer),
// the groups in byte order of their names (by count with -n), each
// group's subjects oldest first. With no revision it summarizes HEAD:
// nook's git has no standard input to read a log from, where git reads
// one when its input is not a terminal.
func cmdShortlog(x *cli, args []string) int {
	f, err := parseOpts(args, shortlogOpts, shortlogUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if o := f.refuse("w", "format", "group"); o != "" {
		return x.notSupported("shortlog", o)
	}
	ps, err := x.spec(f.paths)
	if err != nil {
		return x.fail(err)
	}
	include, exclude, err := x.revRange(f.pos)
	if err != nil {
		return x.fail(err)
	}
	if f.has("all") {
		for _, r := range x.refs("refs/") {
			if h, err := x.peelCommit(r.Hash()); err == nil {
				include = append(include, h)
			}
		}
	}
	if len(include) == 0 {
		_, h := x.head()
		if h.IsZero() {
			return 0
		}
		include = append(include, h)
	}
	type group struct {
		name     string
		subjects []string
	}
	groups := map[string]*group{}
	err = x.walk(walkOpts{include: include, exclude: exclude, firstParent: f.has("first-parent"), ps: ps}, func(c *object.Commit) bool {
		if f.has("merges") && len(c.ParentHashes) < 2 || f.has("no-merges") && len(c.ParentHashes) > 1 {
			return true
		}
		who := c.Author
		if f.has("committer") {
			who = c.Committer
		}
		name := who.Name
		if f.has("email") {
			name += " <" + who.Email + ">"
		}
		g := groups[name]
		if g == nil {
			g = &group{name: name}
			groups[name] = g
		}
		g.subjects = append(g.subjects, logSubject(c.Message))
		return true
	})
	if err != nil {
		return x.fail(err)
	}
	list := make([]*group, 0, len(groups))
	for _, g := range groups {
		list = append(list, g)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].name < list[j].name })
	if f.has("numbered") {
		sort.SliceStable(list, func(i, j int) bool { return len(list[i].subjects) > len(list[j].subjects) })
	}
	for _, g := range list {
		if f.has("summary") {
			x.printf("%6d\t%s\n", len(g.subjects), g.name)
			continue
		}
		x.printf("%s (%d):\n", g.name, len(g.subjects))
		for i := len(g.subjects) - 1; i >= 0; i-- {
			x.printf("      %s\n", g.subjects[i])
		}
		x.printf("\n")
	}
	return 0
}

// logSubject is a commit's subject as git's %s shows it: the lines of the
// first paragraph, each without trailing blanks, joined by spaces.
func logSubject(msg string) string {
	para, _, _ := strings.Cut(strings.TrimLeft(msg, "\n"), "\n\n")
	lines := strings.Split(strings.TrimRight(para, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimLeft(strings.Join(lines, " "), " \t")
}
