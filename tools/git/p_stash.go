package git

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// A stash is git's: a commit of the worktree (its tree: the tracked files
// as they are) whose parents are HEAD and a commit of the index, with
// refs/stash pointing at the newest and its reflog listing them all.

type stashEntry struct {
	old, new plumbing.Hash
	line     string // the reflog line, as stored
	msg      string
}

func (x *cli) stashList() []stashEntry {
	data, ok := x.r.wt.readRaw(".git/logs/refs/stash")
	if !ok {
		return nil
	}
	var out []stashEntry
	for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		_, msg, _ := strings.Cut(l, "\t")
		out = append(out, stashEntry{plumbing.NewHash(f[0]), plumbing.NewHash(f[1]), l, msg})
	}
	// Newest first.
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

func (x *cli) writeStashList(list []stashEntry) error {
	if len(list) == 0 {
		x.r.wt.removeRaw(".git/logs/refs/stash")
		return x.r.Storer.RemoveReference("refs/stash")
	}
	var b strings.Builder
	for i := len(list) - 1; i >= 0; i-- {
		b.WriteString(list[i].line + "\n")
	}
	if err := x.r.wt.writeRaw(".git/logs/refs/stash", []byte(b.String())); err != nil {
		return err
	}
	return x.r.Storer.SetReference(plumbing.NewHashReference("refs/stash", list[0].new))
}

// stashRef parses stash@{n} (default 0).
func (x *cli) stashRef(args []string) (int, stashEntry, error) {
	list := x.stashList()
	n := 0
	if len(args) > 0 {
		a := args[0]
		switch {
		case isDigits(a):
			n, _ = strconv.Atoi(a)
		case strings.HasPrefix(a, "stash@{") && strings.HasSuffix(a, "}"):
			v := a[7 : len(a)-1]
			if !isDigits(v) {
				return 0, stashEntry{}, errorf(1, "%s is not a valid reference", a)
			}
			n, _ = strconv.Atoi(v)
		default:
			return 0, stashEntry{}, errorf(1, "%s is not a stash-like commit", a)
		}
	}
	if len(list) == 0 {
		return 0, stashEntry{}, &fatalErr{code: 1, text: "No stash entries found.\n"}
	}
	if n >= len(list) {
		return 0, stashEntry{}, fatalf("log for 'stash' only has %d entries", len(list))
	}
	return n, list[n], nil
}

var stashPushOpts = []opt{
	{short: 'm', long: "message", arg: argRequired}, {short: 'u', long: "include-untracked"}, {short: 'q', long: "quiet"},
	{short: 'k', long: "keep-index"}, {short: 'p', long: "patch"}, {short: 'a', long: "all"}, {long: "staged"},
}

const stashUsage = "usage: git stash list [<log-options>]\n" +
	"   or: git stash show [-u | --include-untracked | --only-untracked] [<diff-options>] [<stash>]\n" +
	"   or: git stash drop [-q | --quiet] [<stash>]\n" +
	"   or: git stash pop [--index] [-q | --quiet] [<stash>]\n" +
	"   or: git stash apply [--index] [-q | --quiet] [<stash>]\n" +
	"   or: git stash branch <branchname> [<stash>]\n" +
	"   or: git stash [push [-p | --patch] [-S | --staged] [-k | --[no-]keep-index] [-q | --quiet]\n" +
	"          [-u | --include-untracked] [-a | --all] [(-m | --message) <message>]\n" +
	"          [--pathspec-from-file=<file> [--pathspec-file-nul]]\n" +
	"          [--] [<pathspec>...]]\n" +
	"   or: git stash save [-p | --patch] [-S | --staged] [-k | --[no-]keep-index] [-q | --quiet]\n" +
	"          [-u | --include-untracked] [-a | --all] [<message>]\n" +
	"   or: git stash clear\n" +
	"   or: git stash create [<message>]\n" +
	"   or: git stash store [(-m | --message) <message>] [-q | --quiet] <commit>\n"

func cmdStash(x *cli, args []string) int {
	sub := "push"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	switch sub {
	case "push", "save":
		return x.stashPush(args, sub == "save")
	case "list":
		for i, e := range x.stashList() {
			x.printf("stash@{%d}: %s\n", i, e.msg)
		}
		return 0
	case "show":
		f, err := parseOpts(args, diffOpts, stashUsage, false, "")
		if err != nil {
			return x.fail(err)
		}
		_, e, err := x.stashRef(f.pos)
		if err != nil {
			return x.fail(err)
		}
		c, err := x.r.CommitObject(e.new)
		if err != nil {
			return x.fail(err)
		}
		d, err := x.diffFormatOf(f, false)
		if err != nil {
			return x.fail(err)
		}
		if !d.patch && !d.nameOnly && !d.nameStatus && !d.numstat && !d.shortstat && !d.summary {
			d.stat = true
		}
		from, _ := x.r.commitFlat(c.ParentHashes[0])
		to, _ := x.r.treeFlat(c.TreeHash)
		x.render(x.diffPairs(from, to, nil, true), d)
		return 0
	case "drop":
		n, e, err := x.stashRef(args)
		if err != nil {
			return x.fail(err)
		}
		return x.stashDrop(n, e, false)
	case "pop", "apply":
		f, err := parseOpts(args, []opt{{long: "index"}, {short: 'q', long: "quiet"}}, stashUsage, false, "")
		if err != nil {
			return x.fail(err)
		}
		n, e, err := x.stashRef(f.pos)
		if err != nil {
			return x.fail(err)
		}
		code := x.stashApply(e, f.has("index"), f.has("quiet"))
		if code != 0 || sub == "apply" {
			if code == 1 && sub == "pop" {
				x.printf("The stash entry is kept in case you need it again.\n")
			}
			return code
		}
		return x.stashDrop(n, e, f.has("quiet"))
	case "clear":
		x.writeStashList(nil)
		return 0
	case "branch":
		return x.fatal("git stash branch is not supported by nook's git")
	}
	x.eprintf("error: unknown subcommand: `%s'\n%s", sub, stashUsage)
	return 129
}

func (x *cli) stashDrop(n int, e stashEntry, quiet bool) int {
	list := x.stashList()
	list = append(list[:n], list[n+1:]...)
	if err := x.writeStashList(list); err != nil {
		return x.fail(err)
	}
	if !quiet {
		x.printf("Dropped refs/stash@{%d} (%s)\n", n, e.new)
	}
	return 0
}

func (x *cli) stashPush(args []string, save bool) int {
	f, err := parseOpts(args, stashPushOpts, stashUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if f.has("patch") || f.has("include-untracked") || f.has("all") || f.has("staged") || f.has("keep-index") {
		return x.fatal("nook's git stashes tracked changes only (no -p, -u, -a, -S, -k)")
	}
	msg := f.str("message")
	if save {
		msg = strings.Join(f.pos, " ")
		f.pos = nil
	}
	if len(f.pos)+len(f.paths) > 0 {
		return x.fatal("nook's git stashes the whole worktree (no pathspec)")
	}
	branch, head := x.head()
	if head.IsZero() {
		x.eprintf("You do not have the initial commit yet\n")
		return 1
	}
	st, err := x.state(nil, "no")
	if err != nil {
		return x.fail(err)
	}
	if len(st.changes) == 0 {
		x.printf("No local changes to save\n")
		return 0
	}
	hc, err := x.r.CommitObject(head)
	if err != nil {
		return x.fail(err)
	}
	ix, err := x.r.readIndex()
	if err != nil {
		return x.fail(err)
	}
	if len(ix.conflicted()) > 0 {
		for _, n := range ix.conflicted() {
			x.eprintf("%s: needs merge\n", n)
		}
		x.eprintf("error: could not write index\n")
		return 1
	}
	where := branch
	if where == "" {
		where = "(no branch)"
	}
	base := fmt.Sprintf("%s: %s %s", where, shortHash(head), oneLineSubject(hc.Message))
	sig := x.signature()
	idxTree, err := x.r.writeTree(ix.flat())
	if err != nil {
		return x.fail(err)
	}
	ic, err := x.r.writeCommit(idxTree, []plumbing.Hash{head}, sig, sig, "index on "+base+"\n")
	if err != nil {
		return x.fail(err)
	}
	// The worktree's versions of the tracked files.
	work := ix.flat()
	ws, _ := x.scan()
	for n := range work {
		w, ok := ws[n]
		if !ok {
			delete(work, n)
			continue
		}
		e := ix.get(n)
		h, err := x.workHash(n, w, e)
		if err != nil {
			return x.fail(err)
		}
		if h != e.Hash || w.mode != e.Mode {
			ne, err := x.entryFor(n, w)
			if err != nil {
				return x.fail(err)
			}
			work[n] = tfile{ne.Hash, ne.Mode}
		}
	}
	wTree, err := x.r.writeTree(work)
	if err != nil {
		return x.fail(err)
	}
	title := "WIP on " + base
	if msg != "" {
		title = "On " + where + ": " + msg
	}
	wc, err := x.r.writeCommit(wTree, []plumbing.Hash{head, ic}, sig, sig, title)
	if err != nil {
		return x.fail(err)
	}
	list := x.stashList()
	old := plumbing.ZeroHash
	if len(list) > 0 {
		old = list[0].new
	}
	// A repeat (after a crash) makes the same commit: it is stashed once.
	if old != wc {
		name, email := x.identity()
		line := fmt.Sprintf("%s %s %s <%s> %d %s\t%s", old, wc, name, email, sig.When.Unix(), sig.When.Format("-0700"), title)
		list = append([]stashEntry{{old, wc, line, title}}, list...)
		if err := x.writeStashList(list); err != nil {
			return x.fail(err)
		}
	}
	// Back to HEAD.
	cur, _ := x.r.commitFlat(head)
	if err := x.twoWay(cur, cur, ix, true); err != nil {
		return x.fail(err)
	}
	if err := x.r.writeIndex(ix); err != nil {
		return x.fail(err)
	}
	if !f.has("quiet") {
		x.printf("Saved working directory and index state %s\n", title)
	}
	return 0
}

// stashApply merges the stash's worktree into the current one (against
// the commit it was made on); files the stash added are staged again.
func (x *cli) stashApply(e stashEntry, withIndex, quiet bool) int {
	c, err := x.r.CommitObject(e.new)
	if err != nil || len(c.ParentHashes) < 2 {
		return x.fatal("%s is not a stash-like commit", e.new)
	}
	base, _ := x.r.commitFlat(c.ParentHashes[0])
	stashed, _ := x.r.treeFlat(c.TreeHash)
	ic, err := x.r.CommitObject(c.ParentHashes[1])
	if err != nil {
		return x.fail(err)
	}
	idxFiles, _ := x.r.treeFlat(ic.TreeHash)
	_, head := x.head()
	cur, err := x.r.commitFlat(head)
	if err != nil {
		return x.fail(err)
	}
	ix, err := x.r.readIndex()
	if err != nil {
		return x.fail(err)
	}
	for n, f := range ix.flat() {
		if h, ok := cur[n]; !ok || h != f {
			x.eprintf("error: Your local changes to the following files would be overwritten by merge:\n\t%s\nPlease commit your changes or stash them before you merge.\nAborting\n", n)
			return 1
		}
	}
	m, err := x.mergeTrees(base, cur, stashed, "Updated upstream", "Stashed changes")
	if err != nil {
		return x.fail(err)
	}
	// Merge into the worktree only: the index stays at HEAD, except for
	// files the stash had added (and, with --index, its staged versions).
	save := ix.flat()
	code, ok := x.applyMerge(cur, m, "merge")
	if !ok {
		return code
	}
	ix, _ = x.r.readIndex()
	for n := range m.files {
		if _, conflicted := m.stages[n]; conflicted {
			continue
		}
		_, inBase := base[n]
		switch {
		case withIndex:
			if f, ok := idxFiles[n]; ok {
				ix.set(&ientry{Name: n, Hash: f.hash, Mode: f.mode})
				continue
			}
		case !inBase:
			continue // added by the stash: stays staged
		}
		if f, ok := save[n]; ok {
			e := ix.get(n)
			if e == nil || e.Hash != f.hash {
				ix.set(&ientry{Name: n, Hash: f.hash, Mode: f.mode})
			}
		} else if _, ok := cur[n]; !ok {
			ix.remove(n)
		}
	}
	for n := range base {
		if _, ok := m.files[n]; !ok {
			if f, ok := cur[n]; ok {
				ix.set(&ientry{Name: n, Hash: f.hash, Mode: f.mode})
			}
		}
	}
	if err := x.r.writeIndex(ix); err != nil {
		return x.fail(err)
	}
	x.invalidate()
	for _, l := range m.messages {
		if strings.HasPrefix(l, "CONFLICT") || strings.HasPrefix(l, "Auto-merging") {
			x.printf("%s\n", l)
		}
	}
	if !quiet || len(m.conflicts) > 0 {
		st, err := x.state(nil, "normal")
		if err == nil {
			x.statusLong(st, "normal")
		}
	}
	if len(m.conflicts) > 0 {
		return 1
	}
	return 0
}

var _ = object.Signature{}
