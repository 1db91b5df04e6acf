package git

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// rebase replays a linear branch onto another, commit by commit, as git's
// merge backend does; its state lives in .git/rebase-merge (head-name,
// onto, orig-head, the commits still to pick and the one that stopped), so
// --continue and --abort work after a conflict, from any later call.

const rebaseDir = ".git/rebase-merge/"

var rebaseOpts = []opt{
	{long: "abort"}, {long: "continue"}, {long: "skip"}, {long: "onto", arg: argRequired}, {short: 'q', long: "quiet"},
	{short: 'i', long: "interactive"}, {long: "quit"}, {short: 'f', long: "force-rebase"}, {long: "autostash"},
}

const rebaseUsage = "usage: git rebase [-i] [options] [--exec <cmd>] [--onto <newbase> | --keep-base] [<upstream> [<branch>]]\n" +
	"   or: git rebase [-i] [options] [--exec <cmd>] [--onto <newbase>] --root [<branch>]\n" +
	"   or: git rebase --continue | --abort | --skip | --edit-todo\n"

func (x *cli) rebaseState(name string) string {
	b, _ := x.r.wt.readRaw(rebaseDir + name)
	return strings.TrimSpace(string(b))
}

func (x *cli) rebasing() bool {
	_, ok := x.r.wt.readRaw(rebaseDir + "head-name")
	return ok
}

func cmdRebase(x *cli, args []string) int {
	f, err := parseOpts(args, rebaseOpts, rebaseUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if f.has("interactive") {
		return x.fatal("interactive rebase needs an editor, which nook's git does not have")
	}
	if f.has("quit") {
		return x.notSupported("rebase", "quit")
	}
	if f.has("autostash") {
		return x.fatal("git rebase --autostash is not supported by nook's git (git stash first)")
	}
	switch {
	case f.has("abort"):
		if !x.rebasing() {
			return x.fatal("No rebase in progress?")
		}
		orig := plumbing.NewHash(x.rebaseState("orig-head"))
		branch := x.rebaseState("head-name")
		_, head := x.head()
		cur, _ := x.r.commitFlat(head)
		to, err := x.r.commitFlat(orig)
		if err != nil {
			return x.fail(err)
		}
		ix, _ := x.r.readIndex()
		if err := x.twoWay(cur, to, ix, true); err != nil {
			return x.fail(err)
		}
		x.r.writeIndex(ix)
		x.r.Storer.SetReference(plumbing.NewHashReference(plumbing.ReferenceName(branch), orig))
		x.r.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.ReferenceName(branch)))
		x.reflog(head, orig, "rebase (abort): returning to "+branch)
		x.endRebase()
		return 0
	case f.has("continue"), f.has("skip"):
		if !x.rebasing() {
			return x.fatal("No rebase in progress?")
		}
		ix, _ := x.r.readIndex()
		_, head := x.head()
		if f.has("skip") {
			cur, _ := x.r.commitFlat(head)
			x.twoWay(cur, cur, ix, true)
			x.r.writeIndex(ix)
		} else {
			if c := ix.conflicted(); len(c) > 0 {
				for _, n := range c {
					x.printf("%s: needs merge\n", n)
				}
				x.printf("You must edit all merge conflicts and then\nmark them as resolved using git add\n")
				return 1
			}
			// Commit the resolved pick (dropped when it became empty).
			stopped := plumbing.NewHash(x.rebaseState("stopped-sha"))
			orig, err := x.r.CommitObject(stopped)
			if err != nil {
				return x.fail(err)
			}
			tree, err := x.r.writeTree(ix.flat())
			if err != nil {
				return x.fail(err)
			}
			hc, _ := x.r.CommitObject(head)
			if hc == nil || tree != hc.TreeHash {
				nh, err := x.r.writeCommit(tree, []plumbing.Hash{head}, orig.Author, x.signature(), orig.Message)
				if err != nil {
					return x.fail(err)
				}
				x.r.Storer.SetReference(plumbing.NewHashReference(plumbing.HEAD, nh))
				x.reflog(head, nh, "rebase (continue): "+oneLineSubject(orig.Message))
				x.commitSummary(nh, false, false)
			}
		}
		x.r.wt.removeRaw(".git/CHERRY_PICK_HEAD")
		x.r.wt.removeRaw(".git/MERGE_MSG")
		return x.rebasePick()
	}
	if x.rebasing() {
		return x.fatal("It seems that there is already a rebase-merge directory, and\nI wonder if you are in the middle of another rebase.  If that is the\ncase, please try\n\tgit rebase (--continue | --abort | --skip)\nIf that is not the case, please\n\trm -fr \".git/rebase-merge\"\nand run me again.  I am stopping in case you still have something\nvaluable there.")
	}
	if len(f.pos) == 0 {
		return x.fatal("nook's git has no upstream branches: name the branch to rebase onto")
	}
	if len(f.pos) > 1 {
		return x.fatal("nook's git rebases the current branch only (git switch to it first)")
	}
	branch, head := x.head()
	if branch == "" {
		return x.fatal("nook's git rebases a branch, not a detached HEAD")
	}
	upstream, err := x.rev(f.pos[0])
	if err != nil {
		x.eprintf("fatal: invalid upstream '%s'\n", f.pos[0])
		return 128
	}
	onto := upstream
	if f.has("onto") {
		if onto, err = x.rev(f.str("onto")); err != nil {
			x.eprintf("fatal: Does not point to a valid commit '%s'\n", f.str("onto"))
			return 128
		}
	}
	st, err := x.state(nil, "no")
	if err != nil {
		return x.fail(err)
	}
	if len(st.changes) > 0 {
		x.eprintf("error: cannot rebase: You have unstaged changes.\nerror: Please commit or stash them.\n")
		return 1
	}
	var picks []*object.Commit
	err = x.walk(walkOpts{include: []plumbing.Hash{head}, exclude: []plumbing.Hash{upstream}}, func(c *object.Commit) bool {
		if len(c.ParentHashes) < 2 {
			picks = append([]*object.Commit{c}, picks...)
		}
		return true
	})
	if err != nil {
		return x.fail(err)
	}
	if x.r.isAncestor(onto, head) && len(picks) > 0 && picks[0].NumParents() == 1 && picks[0].ParentHashes[0] == onto && !f.has("force-rebase") {
		x.printf("Current branch %s is up to date.\n", branch)
		return 0
	}
	if len(picks) == 0 && x.r.isAncestor(onto, head) {
		x.printf("Current branch %s is up to date.\n", branch)
		return 0
	}
	// Detach at onto and pick each commit.
	cur, _ := x.r.commitFlat(head)
	to, err := x.r.commitFlat(onto)
	if err != nil {
		return x.fail(err)
	}
	ix, _ := x.r.readIndex()
	if err := x.twoWay(cur, to, ix, false); err != nil {
		if se, ok := err.(*switchErr); ok {
			return x.refuseSwitch(se, "checkout")
		}
		return x.fail(err)
	}
	x.r.writeIndex(ix)
	x.r.wt.writeRaw(".git/ORIG_HEAD", []byte(head.String()+"\n"))
	var todo []string
	for _, c := range picks {
		todo = append(todo, c.Hash.String())
	}
	x.r.wt.writeRaw(rebaseDir+"head-name", []byte("refs/heads/"+branch+"\n"))
	x.r.wt.writeRaw(rebaseDir+"onto", []byte(onto.String()+"\n"))
	x.r.wt.writeRaw(rebaseDir+"orig-head", []byte(head.String()+"\n"))
	x.r.wt.writeRaw(rebaseDir+"todo", []byte(strings.Join(todo, "\n")+"\n"))
	x.r.wt.writeRaw(rebaseDir+"end", []byte(fmt.Sprint(len(todo))+"\n"))
	x.r.Storer.SetReference(plumbing.NewHashReference(plumbing.HEAD, onto))
	ontoName := f.pos[0]
	if f.has("onto") {
		ontoName = f.str("onto")
	}
	x.reflog(head, onto, "rebase (start): checkout "+ontoName)
	return x.rebasePick()
}

// rebasePick picks the commits still to do; it stops at a conflict.
func (x *cli) rebasePick() int {
	todo := strings.Fields(x.rebaseState("todo"))
	end := atoiOr(x.rebaseState("end"), len(todo))
	for len(todo) > 0 {
		n := end - len(todo) + 1
		x.eprintf("Rebasing (%d/%d)\r", n, end)
		h := plumbing.NewHash(todo[0])
		todo = todo[1:]
		x.r.wt.writeRaw(rebaseDir+"todo", []byte(strings.Join(todo, "\n")+"\n"))
		c, err := x.r.CommitObject(h)
		if err != nil {
			return x.fail(err)
		}
		_, head := x.head()
		cur, _ := x.r.commitFlat(head)
		var parent flat
		if len(c.ParentHashes) > 0 {
			parent, _ = x.r.commitFlat(c.ParentHashes[0])
		} else {
			parent = flat{}
		}
		mine, _ := x.r.treeFlat(c.TreeHash)
		subj := oneLineSubject(c.Message)
		m, err := x.mergeTrees(parent, cur, mine, "HEAD", shortHash(h)+" ("+subj+")")
		if err != nil {
			return x.fail(err)
		}
		code, ok := x.applyMerge(cur, m, "merge")
		if !ok {
			return code
		}
		for _, l := range m.messages {
			x.printf("%s\n", l)
		}
		if len(m.conflicts) > 0 {
			x.r.wt.writeRaw(rebaseDir+"stopped-sha", []byte(h.String()+"\n"))
			x.r.wt.writeRaw(".git/MERGE_MSG", []byte(c.Message))
			x.eprintf("error: could not apply %s... %s\n", shortHash(h), subj)
			x.eprintf("hint: Resolve all conflicts manually, mark them as resolved with\n" +
				"hint: \"git add/rm <conflicted_files>\", then run \"git rebase --continue\".\n" +
				"hint: You can instead skip this commit: run \"git rebase --skip\".\n" +
				"hint: To abort and get back to the state before \"git rebase\", run \"git rebase --abort\".\n")
			x.eprintf("Could not apply %s... %s\n", shortHash(h), subj)
			return 1
		}
		tree, err := x.r.writeTree(m.files)
		if err != nil {
			return x.fail(err)
		}
		hc, _ := x.r.CommitObject(head)
		if hc != nil && hc.TreeHash == tree {
			continue // already upstream: dropped
		}
		nh, err := x.r.writeCommit(tree, []plumbing.Hash{head}, c.Author, x.signature(), c.Message)
		if err != nil {
			return x.fail(err)
		}
		x.r.Storer.SetReference(plumbing.NewHashReference(plumbing.HEAD, nh))
		x.reflog(head, nh, "rebase (pick): "+subj)
	}
	branch := x.rebaseState("head-name")
	_, head := x.head()
	orig := plumbing.NewHash(x.rebaseState("orig-head"))
	x.r.Storer.SetReference(plumbing.NewHashReference(plumbing.ReferenceName(branch), head))
	x.r.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.ReferenceName(branch)))
	// git logs the branch's move in one entry, and HEAD's return to it.
	x.appendLog(".git/logs/"+branch, orig, head, "rebase (finish): "+branch+" onto "+x.rebaseState("onto"))
	x.reflog(head, head, "rebase (finish): returning to "+branch)
	x.endRebase()
	x.eprintf("\r%80s\rSuccessfully rebased and updated %s.\n", "", branch)
	return 0
}

func (x *cli) endRebase() {
	for _, n := range []string{"head-name", "onto", "orig-head", "todo", "end", "stopped-sha"} {
		x.r.wt.removeRaw(rebaseDir + n)
	}
	x.r.wt.Remove(strings.TrimSuffix(rebaseDir, "/"))
}
