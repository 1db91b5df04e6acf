package git

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

var branchOpts = []opt{
	{short: 'a', long: "all"}, {short: 'r', long: "remotes"}, {short: 'd', long: "delete"}, {short: 'D', key: "D"},
	{short: 'm', long: "move"}, {short: 'M', key: "M"}, {short: 'f', long: "force"}, {long: "show-current"},
	{short: 'l', long: "list"}, {short: 'v', long: "verbose"}, {short: 'c', long: "copy"}, {long: "contains", arg: argRequired},
	{long: "merged", arg: argOptional}, {long: "no-merged", arg: argOptional}, {short: 'q', long: "quiet"},
	{long: "format", arg: argRequired},
}

const branchUsage = "usage: git branch [<options>] [-r | -a] [--merged] [--no-merged]\n" +
	"   or: git branch [<options>] [-f] [--recurse-submodules] <branch-name> [<start-point>]\n" +
	"   or: git branch [<options>] [-l] [<pattern>...]\n" +
	"   or: git branch [<options>] [-r] (-d | -D) <branch-name>...\n" +
	"   or: git branch [<options>] (-m | -M) [<old-branch>] <new-branch>\n" +
	"   or: git branch [<options>] (-c | -C) [<old-branch>] <new-branch>\n" +
	"   or: git branch [<options>] [-r | -a] [--points-at]\n" +
	"   or: git branch [<options>] [-r | -a] [--format]\n"

func validBranch(name string) bool {
	if name == "" || strings.HasPrefix(name, "-") || name == "HEAD" || strings.HasSuffix(name, ".lock") ||
		strings.ContainsAny(name, " ~^:?*[\\") || strings.Contains(name, "..") || strings.Contains(name, "@{") ||
		strings.HasSuffix(name, "/") || strings.HasPrefix(name, "/") || strings.HasSuffix(name, ".") || strings.Contains(name, "//") {
		return false
	}
	return plumbing.NewBranchReferenceName(name).Validate() == nil
}

func cmdBranch(x *cli, args []string) int {
	f, err := parseOpts(args, branchOpts, branchUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	cur, head := x.head()
	if f.has("show-current") {
		if cur != "" {
			x.printf("%s\n", cur)
		}
		return 0
	}
	if f.has("delete") || f.has("D") {
		force := f.has("D") || f.has("force")
		if len(f.pos) == 0 {
			return x.fatal("branch name required")
		}
		code := 0
		for _, n := range f.pos {
			ref := plumbing.NewBranchReferenceName(n)
			r, err := x.r.Storer.Reference(ref)
			if err != nil {
				x.eprintf("error: branch '%s' not found.\n", n)
				code = 1
				continue
			}
			if n == cur {
				x.eprintf("error: Cannot delete branch '%s' checked out at '%s'\n", n, x.r.root)
				code = 1
				continue
			}
			if !force && !head.IsZero() && !x.r.isAncestor(r.Hash(), head) {
				x.eprintf("error: The branch '%s' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D %s'.\n", n, n)
				code = 1
				continue
			}
			if err := x.r.Storer.RemoveReference(ref); err != nil {
				return x.fail(err)
			}
			x.printf("Deleted branch %s (was %s).\n", n, shortHash(r.Hash()))
		}
		return code
	}
	if o := f.refuse("copy", "format"); o != "" {
		return x.notSupported("branch", o)
	}
	if f.has("move") || f.has("M") {
		old, nw := cur, ""
		switch len(f.pos) {
		case 1:
			nw = f.pos[0]
		case 2:
			old, nw = f.pos[0], f.pos[1]
		default:
			return x.fatal("branch name required")
		}
		if !validBranch(nw) {
			return x.fatal("'%s' is not a valid branch name", nw)
		}
		oref := plumbing.NewBranchReferenceName(old)
		r, err := x.r.Storer.Reference(oref)
		if err != nil {
			if old == cur && head.IsZero() {
				// Renaming an unborn branch moves HEAD only.
				x.r.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(nw)))
				return 0
			}
			x.eprintf("error: refname refs/heads/%s not found\n", old)
			return x.fatal("branch rename failed")
		}
		nref := plumbing.NewBranchReferenceName(nw)
		if _, err := x.r.Storer.Reference(nref); err == nil && !f.has("M") && nw != old {
			return x.fatal("a branch named '%s' already exists", nw)
		}
		if err := x.r.Storer.SetReference(plumbing.NewHashReference(nref, r.Hash())); err != nil {
			return x.fail(err)
		}
		if nw != old {
			x.r.Storer.RemoveReference(oref)
		}
		if old == cur {
			x.r.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, nref))
		}
		return 0
	}
	if len(f.pos) == 0 || f.has("list") || f.has("contains") || f.has("merged") || f.has("no-merged") {
		return x.listBranches(f, cur, head)
	}
	if len(f.pos) > 2 {
		return x.fail(&usageErr{usage: branchUsage})
	}
	name := f.pos[0]
	if !validBranch(name) {
		return x.fatal("'%s' is not a valid branch name", name)
	}
	start := "HEAD"
	if len(f.pos) == 2 {
		start = f.pos[1]
	}
	h, err := x.rev(start)
	if err != nil {
		if start == "HEAD" {
			return x.fatal("Not a valid object name: 'HEAD'.")
		}
		return x.fatal("not a valid object name: '%s'", start)
	}
	ref := plumbing.NewBranchReferenceName(name)
	if old, err := x.r.Storer.Reference(ref); err == nil {
		if name == cur && f.has("force") {
			return x.fatal("cannot force update the branch '%s' checked out at '%s'", name, x.r.root)
		}
		if !f.has("force") {
			if x.c.rc != nil && old.Hash() == h {
				return 0 // a repeat
			}
			return x.fatal("a branch named '%s' already exists", name)
		}
	}
	if err := x.r.Storer.SetReference(plumbing.NewHashReference(ref, h)); err != nil {
		return x.fail(err)
	}
	x.appendLog(".git/logs/"+ref.String(), plumbing.ZeroHash, h, "branch: Created from "+start)
	return 0
}

func (x *cli) listBranches(f *flags, cur string, head plumbing.Hash) int {
	var refs []*plumbing.Reference
	if !f.has("remotes") || f.has("all") {
		refs = append(refs, x.refs("refs/heads/")...)
	}
	if f.has("remotes") || f.has("all") {
		refs = append(refs, x.refs("refs/remotes/")...)
		refs = append(refs, x.remoteHeads()...)
		sort.SliceStable(refs, func(i, j int) bool {
			ri, rj := refs[i].Name().IsRemote(), refs[j].Name().IsRemote()
			return !ri && rj || ri == rj && refs[i].Name() < refs[j].Name()
		})
	}
	var contains plumbing.Hash
	if f.has("contains") {
		h, err := x.rev(f.str("contains"))
		if err != nil {
			return x.fatal("malformed object name %s", f.str("contains"))
		}
		contains = h
	}
	var merged plumbing.Hash
	if f.has("merged") || f.has("no-merged") {
		r := f.str("merged")
		if f.has("no-merged") {
			r = f.str("no-merged")
		}
		h, err := x.rev(orHead(r))
		if err != nil {
			return x.fail(err)
		}
		merged = h
	}
	pats := f.pos
	if cur == "" && !head.IsZero() && !f.has("remotes") && len(pats) == 0 {
		if at, ok := x.detachedAt(head); ok {
			x.printf("* (HEAD detached at %s)\n", at)
		} else {
			x.printf("* (HEAD detached from %s)\n", at)
		}
	}
	width := 0
	for _, r := range refs {
		if n := len(x.branchName(r, f.has("all"))); n > width {
			width = n
		}
	}
	for _, r := range refs {
		n := x.branchName(r, f.has("all"))
		if len(pats) > 0 {
			ok := false
			for _, p := range pats {
				if m, _ := path.Match(p, r.Name().Short()); m {
					ok = true
				}
			}
			if !ok {
				continue
			}
		}
		if !contains.IsZero() && !x.r.isAncestor(contains, r.Hash()) {
			continue
		}
		if !merged.IsZero() {
			in := x.r.isAncestor(r.Hash(), merged)
			if in == f.has("no-merged") {
				continue
			}
		}
		mark := "  "
		if r.Type() == plumbing.SymbolicReference {
			t := r.Target().Short()
			if f.has("verbose") {
				x.printf("%s%-*s -> %s\n", mark, width, n, t)
			} else {
				x.printf("%s%s -> %s\n", mark, n, t)
			}
			continue
		}
		if r.Name().IsBranch() && r.Name().Short() == cur {
			mark = "* "
		}
		if f.has("verbose") {
			c, _ := x.r.CommitObject(r.Hash())
			subj := ""
			if c != nil {
				subj = oneLineSubject(c.Message)
			}
			track := ""
			if r.Name().IsBranch() {
				if up, counts, ok := x.trackingShort(r.Name().Short(), r.Hash()); ok {
					switch {
					case len(f.vals["verbose"]) > 1 && counts != "":
						track = "[" + up + ": " + counts + "] "
					case len(f.vals["verbose"]) > 1:
						track = "[" + up + "] "
					case counts != "":
						track = "[" + counts + "] "
					}
				}
			}
			x.printf("%s%-*s %s %s%s\n", mark, width, n, shortHash(r.Hash()), track, subj)
			continue
		}
		x.printf("%s%s\n", mark, n)
	}
	return 0
}

func (x *cli) branchName(r *plumbing.Reference, all bool) string {
	if r.Name().IsRemote() && all {
		return "remotes/" + r.Name().Short()
	}
	return r.Name().Short()
}

var checkoutOpts = []opt{
	{short: 'b', arg: argRequired, key: "b"}, {short: 'B', arg: argRequired, key: "B"}, {short: 'f', long: "force"},
	{short: 'q', long: "quiet"}, {long: "detach"}, {long: "ours"}, {long: "theirs"}, {short: 'm', long: "merge"},
	{long: "orphan", arg: argRequired}, {short: 'p', long: "patch"}, {short: 't', long: "track"}, {long: "no-track", key: "no-track"},
}

const checkoutUsage = "usage: git checkout [<options>] <branch>\n   or: git checkout [<options>] [<branch>] -- <file>...\n"

var switchOpts = []opt{
	{short: 'c', long: "create", arg: argRequired}, {short: 'C', long: "force-create", arg: argRequired},
	{short: 'd', long: "detach"}, {short: 'f', long: "force", key: "force"}, {long: "discard-changes", key: "force"},
	{short: 'q', long: "quiet"}, {long: "orphan", arg: argRequired}, {short: 'm', long: "merge"}, {short: 't', long: "track"},
	{long: "no-track", key: "no-track"},
}

const switchUsage = "usage: git switch [<options>] [<branch>]\n"

func cmdCheckout(x *cli, args []string) int {
	f, err := parseOpts(args, checkoutOpts, checkoutUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if f.has("patch") {
		return x.fatal("interactive checkout (-p) needs a terminal, which nook's git does not have")
	}
	if f.has("merge") {
		return x.fatal("git checkout -m is not supported by nook's git")
	}
	if f.has("b") || f.has("B") || f.has("orphan") {
		name, force := f.str("b"), false
		if f.has("B") {
			name, force = f.str("B"), true
		}
		if len(f.paths) > 0 {
			return x.fatal("'%s' cannot be used with updating paths", "-b")
		}
		start := ""
		if len(f.pos) > 1 {
			return x.fatal("only one reference expected, %d given.", len(f.pos))
		}
		if len(f.pos) == 1 {
			start = f.pos[0]
		}
		if f.has("orphan") {
			return x.orphan(f.str("orphan"), f.has("quiet"))
		}
		return x.switchTo(start, name, force, f.has("force"), f.has("detach"), f.has("quiet"), "checkout")
	}
	// checkout [rev] -- paths | checkout paths | checkout branch
	if len(f.paths) > 0 || f.dashdash {
		if len(f.pos) > 1 {
			return x.fatal("only one reference expected")
		}
		src := ""
		if len(f.pos) == 1 {
			src = f.pos[0]
			if _, err := x.rev(src); err != nil {
				return x.fatal("invalid reference: %s", src)
			}
		}
		if len(f.paths) == 0 {
			if src == "" {
				return x.fatal("you must specify path(s) to restore")
			}
			return x.switchTo(src, "", false, f.has("force"), f.has("detach"), f.has("quiet"), "checkout")
		}
		return x.checkoutPaths(src, f.paths, f.has("ours"), f.has("theirs"))
	}
	if len(f.pos) == 0 {
		if f.has("ours") || f.has("theirs") {
			return x.fatal("you must specify path(s) to restore")
		}
		// git checkout with no arguments: report on the branch.
		return 0
	}
	target := f.pos[0]
	if _, err := x.rev(target); err != nil || f.has("ours") || f.has("theirs") {
		if target == "-" {
			return x.fatal("invalid reference: -")
		}
		// Paths without "--".
		for _, p := range f.pos {
			if _, err := x.fs().Lstat(x.ctx(), path.Join(x.cwd, p)); err != nil {
				if ix, e2 := x.r.readIndex(); e2 == nil {
					rel, _ := x.toRel(p)
					if ix.get(rel) != nil {
						continue
					}
				}
				if len(f.pos) == 1 {
					x.eprintf("error: pathspec '%s' did not match any file(s) known to git\n", p)
					return 1
				}
				return x.fail(ambiguous(p))
			}
		}
		return x.checkoutPaths("", f.pos, f.has("ours"), f.has("theirs"))
	}
	if len(f.pos) > 1 {
		return x.checkoutPaths(f.pos[0], f.pos[1:], false, false)
	}
	return x.switchTo(target, "", false, f.has("force"), f.has("detach"), f.has("quiet"), "checkout")
}

func (x *cli) checkoutPaths(src string, paths []string, ours, theirs bool) int {
	code := x.restorePaths(paths, src, src != "", true, ours, theirs)
	if code == 0 {
		n := 0
		ps, _ := x.spec(paths)
		ix, _ := x.r.readIndex()
		for _, name := range ix.flatNames() {
			if ps.match(name) {
				n++
			}
		}
		if src == "" && (ours || theirs) {
			x.eprintf("Updated %s from the index\n", plural(n, "path", "paths"))
		} else if src != "" {
			tree := src
			if h, err := x.rev(src); err == nil {
				if c, err := x.r.CommitObject(h); err == nil {
					tree = shortHash(c.TreeHash)
				}
			}
			x.eprintf("Updated %s from %s\n", plural(n, "path", "paths"), tree)
		}
	}
	return code
}

func shortHashOf(x *cli, rev string) string {
	h, err := x.rev(rev)
	if err != nil {
		return rev
	}
	return shortHash(h)
}

func cmdSwitch(x *cli, args []string) int {
	f, err := parseOpts(args, switchOpts, switchUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if f.has("merge") {
		return x.fatal("git switch -m is not supported by nook's git")
	}
	if f.has("orphan") {
		return x.orphan(f.str("orphan"), f.has("quiet"))
	}
	name, force := f.str("create"), false
	if f.has("force-create") {
		name, force = f.str("force-create"), true
	}
	start := ""
	if len(f.pos) > 1 {
		return x.fatal("only one reference expected, %d given.", len(f.pos))
	}
	if len(f.pos) == 1 {
		start = f.pos[0]
	}
	if name == "" && start == "" {
		return x.fatal("missing branch or commit argument")
	}
	if name == "" && !f.has("detach") {
		if start != "-" {
			if _, err := x.r.Storer.Reference(plumbing.NewBranchReferenceName(start)); err != nil {
				if _, err := x.rev(start); err == nil {
					what := "commit"
					if _, err := x.r.Storer.Reference(plumbing.NewTagReferenceName(start)); err == nil {
						what = "tag"
					}
					x.eprintf("fatal: a branch is expected, got %s '%s'\n", what, start)
					x.eprintf("hint: If you want to detach HEAD at the commit, try again with the --detach option.\n")
					return 128
				}
				return x.fatal("invalid reference: %s", start)
			}
		}
	}
	return x.switchTo(start, name, force, f.has("force"), f.has("detach"), f.has("quiet"), "switch")
}

func (x *cli) orphan(name string, quiet bool) int {
	if !validBranch(name) {
		return x.fatal("'%s' is not a valid branch name", name)
	}
	if _, err := x.r.Storer.Reference(plumbing.NewBranchReferenceName(name)); err == nil {
		return x.fatal("a branch named '%s' already exists", name)
	}
	if err := x.r.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(name))); err != nil {
		return x.fail(err)
	}
	if !quiet {
		x.eprintf("Switched to a new branch '%s'\n", name)
	}
	return 0
}

// switchTo checks out target (a branch, or a commit to detach at); with
// newBranch, creates it at target (default HEAD) first.
func (x *cli) switchTo(target, newBranch string, forceCreate, force, detach, quiet bool, cmd string) int {
	curBranch, curHead := x.head()
	prevName := curBranch
	if prevName == "" {
		prevName = curHead.String()
	}
	if target == "-" {
		p, ok := x.previousBranch()
		if !ok {
			return x.fatal("invalid reference: -")
		}
		target = p
	}
	var to plumbing.Hash
	var branch string // the branch HEAD will name
	if newBranch != "" {
		if !validBranch(newBranch) {
			return x.fatal("'%s' is not a valid branch name", newBranch)
		}
		ref := plumbing.NewBranchReferenceName(newBranch)
		if old, err := x.r.Storer.Reference(ref); err == nil && !forceCreate {
			if x.c.rc != nil && newBranch == curBranch && (target == "" || old.Hash() == curHead) {
				return 0 // a repeat
			}
			return x.fatal("a branch named '%s' already exists", newBranch)
		}
		if target == "" {
			if curHead.IsZero() {
				// A new name for the unborn branch.
				x.r.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, ref))
				if !quiet {
					x.eprintf("Switched to a new branch '%s'\n", newBranch)
				}
				return 0
			}
			to = curHead
		} else {
			h, err := x.rev(target)
			if err != nil {
				if cmd == "switch" {
					return x.fatal("invalid reference: %s", target)
				}
				return x.fatal("'%s' is not a commit and a branch '%s' cannot be created from it", target, newBranch)
			}
			to = h
		}
		branch = newBranch
	} else {
		if r, err := x.r.Storer.Reference(plumbing.NewBranchReferenceName(target)); err == nil && !detach {
			branch, to = target, r.Hash()
		} else {
			h, err := x.rev(target)
			if err != nil {
				if cmd == "switch" {
					return x.fatal("invalid reference: %s", target)
				}
				x.eprintf("error: pathspec '%s' did not match any file(s) known to git\n", target)
				return 1
			}
			to = h
		}
	}
	from, err := x.r.commitFlat(curHead)
	if err != nil {
		return x.fail(err)
	}
	toFiles, err := x.r.commitFlat(to)
	if err != nil {
		return x.fail(err)
	}
	ix, err := x.r.readIndex()
	if err != nil {
		return x.fail(err)
	}
	if len(ix.conflicted()) > 0 && !force {
		for _, n := range ix.conflicted() {
			x.eprintf("%s: needs merge\n", n)
		}
		x.eprintf("error: you need to resolve your current index first\n")
		return 1
	}
	if err := x.twoWay(from, toFiles, ix, force); err != nil {
		if se, ok := err.(*switchErr); ok {
			return x.refuseSwitch(se, "checkout")
		}
		return x.fail(err)
	}
	if err := x.r.writeIndex(ix); err != nil {
		return x.fail(err)
	}
	if newBranch != "" {
		if err := x.r.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName(newBranch), to)); err != nil {
			return x.fail(err)
		}
		from := target
		if from == "" {
			from = "HEAD"
		}
		x.appendLog(".git/logs/refs/heads/"+newBranch, plumbing.ZeroHash, to, "branch: Created from "+from)
	}
	toName := branch
	if branch != "" {
		x.r.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(branch)))
	} else {
		x.r.Storer.SetReference(plumbing.NewHashReference(plumbing.HEAD, to))
		toName = target
	}
	x.reflog(curHead, to, fmt.Sprintf("checkout: moving from %s to %s", prevName, toName))
	if force {
		x.clearMergeState()
	}
	if quiet {
		return 0
	}
	if curBranch == "" && !curHead.IsZero() && curHead != to {
		if pc, _ := x.r.CommitObject(curHead); pc != nil {
			x.eprintf("Previous HEAD position was %s %s\n", shortHash(curHead), oneLineSubject(pc.Message))
		}
	}
	switch {
	case newBranch != "" && forceCreate:
		x.eprintf("Switched to and reset branch '%s'\n", newBranch)
	case newBranch != "":
		x.eprintf("Switched to a new branch '%s'\n", newBranch)
	case branch != "" && branch == curBranch:
		x.eprintf("Already on '%s'\n", branch)
	case branch != "":
		x.eprintf("Switched to branch '%s'\n", branch)
	default:
		c, _ := x.r.CommitObject(to)
		subj := ""
		if c != nil {
			subj = oneLineSubject(c.Message)
		}
		if curBranch == "" && !curHead.IsZero() {
			x.eprintf("HEAD is now at %s %s\n", shortHash(to), subj)
			break
		}
		if cmd == "switch" {
			x.eprintf("HEAD is now at %s %s\n", shortHash(to), subj)
			break
		}
		x.eprintf("Note: switching to '%s'.\n\n", target)
		x.eprintf("You are in 'detached HEAD' state. You can look around, make experimental\n" +
			"changes and commit them, and you can discard any commits you make in this\n" +
			"state without impacting any branches by switching back to a branch.\n\n" +
			"If you want to create a new branch to retain commits you create, you may\n" +
			"do so (now or later) by using -c with the switch command. Example:\n\n" +
			"  git switch -c <new-branch-name>\n\n" +
			"Or undo this operation with:\n\n" +
			"  git switch -\n\n" +
			"Turn off this advice by setting config variable advice.detachedHead to false\n\n")
		x.eprintf("HEAD is now at %s %s\n", shortHash(to), subj)
	}
	if branch != "" && newBranch == "" {
		x.printLocalChanges(ix, toFiles)
	}
	return 0
}

// printLocalChanges lists the local changes a switch carried ("M\tfile").
func (x *cli) printLocalChanges(ix *idx, head flat) {
	st, err := x.state(nil, "no")
	if err != nil {
		return
	}
	for _, c := range st.changes {
		code := c.y
		if code == ' ' {
			code = c.x
		}
		if code == 'R' || code == ' ' {
			continue
		}
		x.printf("%c\t%s\n", code, x.display(c.path))
	}
}

func (x *cli) refuseSwitch(se *switchErr, op string) int {
	verbs := map[string]string{"checkout": "checkout", "merge": "merge"}
	v := verbs[op]
	if len(se.local) > 0 {
		x.eprintf("error: Your local changes to the following files would be overwritten by %s:\n", v)
		for _, n := range se.local {
			x.eprintf("\t%s\n", x.display(n))
		}
		if op == "merge" {
			x.eprintf("Please commit your changes or stash them before you merge.\n")
		} else {
			x.eprintf("Please commit your changes or stash them before you switch branches.\n")
		}
	}
	if len(se.untracked) > 0 {
		x.eprintf("error: The following untracked working tree files would be overwritten by %s:\n", v)
		for _, n := range se.untracked {
			x.eprintf("\t%s\n", x.display(n))
		}
		if op == "merge" {
			x.eprintf("Please move or remove them before you merge.\n")
		} else {
			x.eprintf("Please move or remove them before you switch branches.\n")
		}
	}
	x.eprintf("Aborting\n")
	return 1
}

var tagOpts = []opt{
	{short: 'a', long: "annotate"}, {short: 'm', long: "message", arg: argRequired}, {short: 'd', long: "delete"},
	{short: 'l', long: "list"}, {short: 'f', long: "force"}, {short: 'n', arg: argOptional, key: "n"},
	{long: "contains", arg: argRequired}, {long: "points-at", arg: argRequired}, {short: 'F', long: "file", arg: argRequired},
	{long: "sort", arg: argRequired},
}

const tagUsage = "usage: git tag [-a | -s | -u <key-id>] [-f] [-m <msg> | -F <file>] [-e]\n" +
	"               <tagname> [<commit> | <object>]\n" +
	"   or: git tag -d <tagname>...\n" +
	"   or: git tag [-n[<num>]] -l [--contains <commit>] [--no-contains <commit>]\n" +
	"               [--points-at <object>] [--column[=<options>] | --no-column]\n" +
	"               [--create-reflog] [--sort=<key>] [--format=<format>]\n" +
	"               [--merged <commit>] [--no-merged <commit>] [<pattern>...]\n" +
	"   or: git tag -v [--format=<format>] <tagname>...\n"

func cmdTag(x *cli, args []string) int {
	f, err := parseOpts(args, tagOpts, tagUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if o := f.refuse("contains", "points-at", "sort"); o != "" {
		return x.notSupported("tag", o)
	}
	if f.has("delete") {
		code := 0
		for _, n := range f.pos {
			ref := plumbing.NewTagReferenceName(n)
			r, err := x.r.Storer.Reference(ref)
			if err != nil {
				x.eprintf("error: tag '%s' not found.\n", n)
				code = 1
				continue
			}
			x.r.Storer.RemoveReference(ref)
			x.printf("Deleted tag '%s' (was %s)\n", n, shortHash(r.Hash()))
		}
		return code
	}
	if len(f.pos) == 0 || f.has("list") {
		tags := x.refs("refs/tags/")
		for _, r := range tags {
			n := r.Name().Short()
			if len(f.pos) > 0 {
				ok := false
				for _, p := range f.pos {
					if m, _ := path.Match(p, n); m {
						ok = true
					}
				}
				if !ok {
					continue
				}
			}
			if f.has("n") {
				msg := ""
				if t, err := x.r.TagObject(r.Hash()); err == nil {
					msg = oneLineSubject(t.Message)
				} else if c, err := x.r.CommitObject(r.Hash()); err == nil {
					msg = oneLineSubject(c.Message)
				}
				x.printf("%-15s %s\n", n, msg)
				continue
			}
			x.printf("%s\n", n)
		}
		return 0
	}
	name := f.pos[0]
	if !validBranch(name) {
		return x.fatal("'%s' is not a valid tag name.", name)
	}
	target := "HEAD"
	if len(f.pos) > 1 {
		target = f.pos[1]
	}
	h, err := x.revAny(target)
	if err != nil {
		return x.fatal("Failed to resolve '%s' as a valid ref.", target)
	}
	ref := plumbing.NewTagReferenceName(name)
	if old, err := x.r.Storer.Reference(ref); err == nil && !f.has("force") {
		if x.c.rc != nil {
			if t, err := x.peelCommit(old.Hash()); err == nil && t == h {
				return 0 // a repeat
			}
		}
		return x.fatal("tag '%s' already exists", name)
	}
	msg := strings.Join(f.all("message"), "\n\n")
	if f.has("file") {
		data, err := x.fs().ReadFile(x.ctx(), path.Join(x.cwd, f.str("file")))
		if err != nil {
			return x.fatal("could not open or read '%s': No such file or directory", f.str("file"))
		}
		msg = string(data)
	}
	obj := h
	if f.has("annotate") || f.has("message") || f.has("file") {
		if msg == "" && !f.has("message") {
			return x.fatal("no tag message given (nook's git has no editor: use -m)")
		}
		msg = cleanMessage(msg)
		o, err := x.r.Storer.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return x.fail(err)
		}
		tag := &object.Tag{Name: name, Tagger: x.signature(), Message: msg, TargetType: o.Type(), Target: h}
		eo := x.r.Storer.NewEncodedObject()
		if err := tag.Encode(eo); err != nil {
			return x.fail(err)
		}
		if obj, err = x.r.Storer.SetEncodedObject(eo); err != nil {
			return x.fail(err)
		}
	}
	if err := x.r.Storer.SetReference(plumbing.NewHashReference(ref, obj)); err != nil {
		return x.fail(err)
	}
	return 0
}

// cmdRevParse handles its arguments in order, as git does: a flag such
// as --short or --abbrev-ref applies to the revisions after it.
func cmdRevParse(x *cli, args []string) int {
	var short, abbrevRef, full, verify, quiet bool
	shortLen := 7
	var revs []string
	for _, a := range args {
		switch {
		case a == "--short" || strings.HasPrefix(a, "--short="):
			short = true
			if v, ok := strings.CutPrefix(a, "--short="); ok {
				shortLen = min(max(atoiOr(v, 7), 4), 40)
			}
		case a == "--abbrev-ref" || a == "--abbrev-ref=strict" || a == "--abbrev-ref=loose":
			abbrevRef = true
		case a == "--symbolic-full-name":
			full = true
		case a == "--verify":
			verify = true
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--show-toplevel":
			x.printf("%s\n", x.r.root)
		case a == "--git-dir":
			if x.prefix == "" {
				x.printf(".git\n")
			} else {
				x.printf("%s/.git\n", x.r.root)
			}
		case a == "--absolute-git-dir":
			x.printf("%s/.git\n", x.r.root)
		case a == "--is-inside-work-tree":
			x.printf("true\n")
		case a == "--is-inside-git-dir", a == "--is-bare-repository":
			x.printf("false\n")
		case a == "--show-prefix":
			if x.prefix != "" {
				x.printf("%s/\n", x.prefix)
			} else {
				x.printf("\n")
			}
		case a == "--show-cdup":
			if x.prefix != "" {
				x.printf("%s\n", strings.Repeat("../", strings.Count(x.prefix, "/")+1))
			} else {
				x.printf("\n")
			}
		case a == "--":
		case strings.HasPrefix(a, "-") && a != "-":
			x.printf("%s\n", a)
		default:
			if verify {
				revs = append(revs, a)
				continue
			}
			if code := x.revParseOne(a, short, abbrevRef, full, shortLen); code != 0 {
				return code
			}
		}
	}
	if verify {
		if len(revs) != 1 {
			if quiet {
				return 1
			}
			return x.fatal("Needed a single revision")
		}
		if _, err := x.revAny(strings.Split(revs[0], "^{")[0]); err != nil && !strings.Contains(revs[0], ":") {
			if quiet {
				return 1
			}
			return x.fatal("Needed a single revision")
		}
		return x.revParseOne(revs[0], short, abbrevRef, full, shortLen)
	}
	return 0
}

func (x *cli) revParseOne(a string, short, abbrevRef, full bool, shortLen int) int {
	if abbrevRef || full {
		if a == "HEAD" || a == "@" {
			b, h := x.head()
			if h.IsZero() && b != "" {
				x.printf("HEAD\n")
				return x.fail(ambiguous("HEAD"))
			}
			switch {
			case b == "":
				x.printf("HEAD\n")
			case abbrevRef:
				x.printf("%s\n", b)
			default:
				x.printf("refs/heads/%s\n", b)
			}
			return 0
		}
		if _, err := x.r.Storer.Reference(plumbing.NewBranchReferenceName(a)); err == nil {
			if abbrevRef {
				x.printf("%s\n", a)
			} else {
				x.printf("refs/heads/%s\n", a)
			}
			return 0
		}
	}
	var h plumbing.Hash
	var err error
	if strings.Contains(a, ":") {
		var t tfile
		if t, err = x.blobAt(a); err != nil {
			return x.fail(err)
		}
		h = t.hash
	} else if rev, peel, ok := strings.Cut(a, "^{"); ok {
		if h, err = x.revAny(rev); err == nil {
			switch peel {
			case "commit}", "}":
				h, err = x.peelCommit(h)
			case "tree}":
				if h, err = x.peelCommit(h); err == nil {
					var c *object.Commit
					if c, err = x.r.CommitObject(h); err == nil {
						h = c.TreeHash
					}
				}
			}
		}
	} else {
		h, err = x.revAny(a)
	}
	if err != nil {
		x.printf("%s\n", a)
		return x.fail(err)
	}
	s := h.String()
	if short {
		s = s[:shortLen]
	}
	x.printf("%s\n", s)
	return 0
}

// sortedKeys is a helper for deterministic output.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
