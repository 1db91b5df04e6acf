package git

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// treeMerge is the result of a three-way merge of trees.
type treeMerge struct {
	files     flat                 // the merged files (conflicted ones hold the marked-up blob)
	stages    map[string][4]*tfile // conflicted paths: base, ours, theirs
	messages  []string             // "Auto-merging x", "CONFLICT (...): ..."
	conflicts []string
}

// mergeTrees merges theirs into ours against base, path by path; files
// changed on both sides are merged line by line.
func (x *cli) mergeTrees(base, ours, theirs flat, oursLabel, theirsLabel string) (*treeMerge, error) {
	m := &treeMerge{files: flat{}, stages: map[string][4]*tfile{}}
	names := map[string]bool{}
	for _, f := range []flat{base, ours, theirs} {
		for n := range f {
			names[n] = true
		}
	}
	for _, n := range sortedKeys(names) {
		b, inB := base[n]
		o, inO := ours[n]
		t, inT := theirs[n]
		same := func(a tfile, ina bool, c tfile, inc bool) bool { return ina == inc && (!ina || a == c) }
		switch {
		case same(o, inO, t, inT):
			if inO {
				m.files[n] = o
			}
		case same(b, inB, o, inO):
			if inT {
				m.files[n] = t
			}
		case same(b, inB, t, inT):
			if inO {
				m.files[n] = o
			}
		case inO && inT:
			// Both changed (or both added): merge the lines.
			m.messages = append(m.messages, "Auto-merging "+n)
			var bd []byte
			var err error
			if inB {
				if bd, err = x.r.readBlob(b.hash); err != nil {
					return nil, err
				}
			}
			od, err := x.r.readBlob(o.hash)
			if err != nil {
				return nil, err
			}
			td, err := x.r.readBlob(t.hash)
			if err != nil {
				return nil, err
			}
			if isBinary(od) || isBinary(td) || isBinary(bd) {
				m.messages = append(m.messages, "warning: Cannot merge binary files: "+n+" ("+oursLabel+" vs. "+theirsLabel+")")
				m.conflict(n, b, inB, o, inO, t, inT, "CONFLICT (content): Merge conflict in "+n)
				m.files[n] = o
				continue
			}
			out, conflict := merge3(bd, od, td, oursLabel, theirsLabel)
			h, err := x.r.writeObject(plumbing.BlobObject, out)
			if err != nil {
				return nil, err
			}
			mode := o.mode
			if inB && o.mode == b.mode {
				mode = t.mode
			}
			m.files[n] = tfile{h, mode}
			if conflict {
				kind := "content"
				if !inB {
					kind = "add/add"
				}
				m.conflict(n, b, inB, o, inO, t, inT, fmt.Sprintf("CONFLICT (%s): Merge conflict in %s", kind, n))
			}
		case inO && !inT:
			// Deleted by them, modified by us.
			m.files[n] = o
			m.conflict(n, b, inB, o, inO, t, inT, fmt.Sprintf("CONFLICT (modify/delete): %s deleted in %s and modified in %s.  Version %s of %s left in tree.", n, theirsLabel, oursLabel, oursLabel, n))
		case !inO && inT:
			m.files[n] = t
			m.conflict(n, b, inB, o, inO, t, inT, fmt.Sprintf("CONFLICT (modify/delete): %s deleted in %s and modified in %s.  Version %s of %s left in tree.", n, oursLabel, theirsLabel, theirsLabel, n))
		}
	}
	return m, nil
}

func (m *treeMerge) conflict(n string, b tfile, inB bool, o tfile, inO bool, t tfile, inT bool, msg string) {
	var s [4]*tfile
	if inB {
		s[1] = &b
	}
	if inO {
		s[2] = &o
	}
	if inT {
		s[3] = &t
	}
	m.stages[n] = s
	m.messages = append(m.messages, msg)
	m.conflicts = append(m.conflicts, n)
}

// applyMerge writes a merge result into the index and worktree, moving
// from the tree cur (HEAD). Local changes to paths the merge changes
// refuse it first (nothing is written then).
func (x *cli) applyMerge(cur flat, m *treeMerge, op string) (int, bool) {
	ix, err := x.r.readIndex()
	if err != nil {
		return x.fail(err), false
	}
	// Check local changes against what will change.
	clean := flat{}
	for n, f := range m.files {
		if _, c := m.stages[n]; !c {
			clean[n] = f
		}
	}
	target := flat{}
	for n, f := range m.files {
		target[n] = f
	}
	if err := x.twoWay(cur, target, ix, false); err != nil {
		if se, ok := err.(*switchErr); ok {
			return x.refuseSwitch(se, op), false
		}
		return x.fail(err), false
	}
	for n, s := range m.stages {
		ix.remove(n)
		for k := 1; k <= 3; k++ {
			if s[k] != nil {
				ix.entries = append(ix.entries, &ientry{Name: n, Hash: s[k].hash, Mode: s[k].mode, Stage: index.Stage(k)})
			}
		}
	}
	ix.sort()
	if err := x.r.writeIndex(ix); err != nil {
		return x.fail(err), false
	}
	return 0, true
}

var mergeOpts = []opt{
	{long: "no-ff", key: "no-ff"}, {long: "ff-only"}, {long: "ff"}, {short: 'm', long: "message", arg: argRequired},
	{long: "abort"}, {long: "continue"}, {long: "no-edit", key: "no-edit"}, {short: 'q', long: "quiet"},
	{long: "squash"}, {long: "no-commit", key: "no-commit"}, {long: "stat"}, {short: 'n', key: "no-stat"}, {long: "no-stat", key: "no-stat"},
	{short: 's', long: "strategy", arg: argRequired}, {short: 'X', long: "strategy-option", arg: argRequired}, {long: "edit"},
	{long: "allow-unrelated-histories"}, {short: 'v', long: "verbose"},
}

const mergeUsage = "usage: git merge [<options>] [<commit>...]\n   or: git merge --abort\n   or: git merge --quit\n   or: git merge --continue\n"

func cmdMerge(x *cli, args []string) int {
	f, err := parseOpts(args, mergeOpts, mergeUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if f.has("abort") {
		if !x.mergeInProgress() {
			return x.fatal("There is no merge to abort (MERGE_HEAD missing).")
		}
		_, head := x.head()
		cur, _ := x.r.commitFlat(head)
		ix, _ := x.r.readIndex()
		if err := x.twoWay(cur, cur, ix, true); err != nil {
			return x.fail(err)
		}
		x.r.writeIndex(ix)
		x.clearMergeState()
		return 0
	}
	if f.has("continue") {
		if !x.mergeInProgress() {
			return x.fatal("There is no merge in progress (MERGE_HEAD missing).")
		}
		return cmdCommit(x, nil)
	}
	if f.has("strategy") && f.str("strategy") != "ort" && f.str("strategy") != "recursive" {
		return x.fatal("nook's git merges with the ort strategy only")
	}
	if f.has("strategy-option") {
		return x.notSupported("merge", "strategy-option")
	}
	if f.has("squash") {
		return x.fatal("git merge --squash is not supported by nook's git")
	}
	if len(f.pos) != 1 {
		if len(f.pos) == 0 {
			return x.fatal("No remote for the current branch.")
		}
		return x.fatal("nook's git merges one branch at a time (no octopus merges)")
	}
	if x.mergeInProgress() {
		x.eprintf("error: Merging is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\nfatal: Exiting because of an unresolved conflict.\n")
		return 128
	}
	name := f.pos[0]
	theirs, err := x.rev(name)
	if err != nil {
		x.eprintf("merge: %s - not something we can merge\n", name)
		return 1
	}
	branch, head := x.head()
	if head.IsZero() {
		return x.fatal("nook's git cannot merge into an unborn branch")
	}
	if x.r.isAncestor(theirs, head) {
		x.printf("Already up to date.\n")
		return 0
	}
	cur, err := x.r.commitFlat(head)
	if err != nil {
		return x.fail(err)
	}
	quiet := f.has("quiet")
	if x.r.isAncestor(head, theirs) && !f.has("no-ff") {
		to, err := x.r.commitFlat(theirs)
		if err != nil {
			return x.fail(err)
		}
		ix, _ := x.r.readIndex()
		if err := x.twoWay(cur, to, ix, false); err != nil {
			if se, ok := err.(*switchErr); ok {
				x.printf("Updating %s..%s\n", shortHash(head), shortHash(theirs))
				return x.refuseSwitch(se, "merge")
			}
			return x.fail(err)
		}
		if err := x.r.writeIndex(ix); err != nil {
			return x.fail(err)
		}
		x.r.wt.writeRaw(".git/ORIG_HEAD", []byte(head.String()+"\n"))
		if err := x.moveHead(theirs, "merge "+name+": Fast-forward"); err != nil {
			return x.fail(err)
		}
		if !quiet {
			x.printf("Updating %s..%s\nFast-forward\n", shortHash(head), shortHash(theirs))
			if !f.has("no-stat") {
				pairs := x.diffPairs(cur, to, nil, true)
				x.printf("%s%s", statText(x.numstat(pairs), 80), summaryLines(pairs))
			}
		}
		return 0
	}
	if f.has("ff-only") {
		return x.fatal("Not possible to fast-forward, aborting.")
	}
	base, err := x.r.mergeBase(head, theirs)
	var baseFiles flat
	if err != nil {
		if !f.has("allow-unrelated-histories") {
			return x.fatal("refusing to merge unrelated histories")
		}
		baseFiles = flat{}
	} else if baseFiles, err = x.r.commitFlat(base); err != nil {
		return x.fail(err)
	}
	theirFiles, err := x.r.commitFlat(theirs)
	if err != nil {
		return x.fail(err)
	}
	m, err := x.mergeTrees(baseFiles, cur, theirFiles, "HEAD", name)
	if err != nil {
		return x.fail(err)
	}
	msg := f.str("message")
	if msg == "" {
		msg = mergeMessage(name, branch, x)
	}
	code, ok := x.applyMerge(cur, m, "merge")
	if !ok {
		if code == 1 {
			x.eprintf("Merge with strategy ort failed.\n")
			return 2
		}
		return code
	}
	x.r.wt.writeRaw(".git/ORIG_HEAD", []byte(head.String()+"\n"))
	if len(m.conflicts) > 0 || f.has("no-commit") {
		x.r.wt.writeRaw(".git/MERGE_HEAD", []byte(theirs.String()+"\n"))
		x.r.wt.writeRaw(".git/MERGE_MODE", []byte("no-ff"))
		mm := cleanMessage(msg)
		if len(m.conflicts) > 0 {
			mm += "\n# Conflicts:\n"
			for _, c := range m.conflicts {
				mm += "#\t" + c + "\n"
			}
		}
		x.r.wt.writeRaw(".git/MERGE_MSG", []byte(mm))
		for _, l := range m.messages {
			x.printf("%s\n", l)
		}
		if len(m.conflicts) > 0 {
			x.printf("Automatic merge failed; fix conflicts and then commit the result.\n")
			return 1
		}
		x.printf("Automatic merge went well; stopped before committing as requested\n")
		return 0
	}
	tree, err := x.r.writeTree(m.files)
	if err != nil {
		return x.fail(err)
	}
	sig := x.signature()
	h, err := x.r.writeCommit(tree, []plumbing.Hash{head, theirs}, sig, sig, cleanMessage(msg))
	if err != nil {
		return x.fail(err)
	}
	if err := x.moveHead(h, "merge "+name+": Merge made by the 'ort' strategy."); err != nil {
		return x.fail(err)
	}
	// The merge's own lines (Auto-merging) are git's even under -q.
	for _, l := range m.messages {
		x.printf("%s\n", l)
	}
	if !quiet {
		x.printf("Merge made by the 'ort' strategy.\n")
		if !f.has("no-stat") {
			pairs := x.diffPairs(cur, m.files, nil, true)
			x.printf("%s%s", statText(x.numstat(pairs), 80), summaryLines(pairs))
		}
	}
	return 0
}

func mergeMessage(name, branch string, x *cli) string {
	kind := "commit"
	if _, err := x.r.Storer.Reference(plumbing.NewBranchReferenceName(name)); err == nil {
		kind = "branch"
	} else if _, err := x.r.Storer.Reference(plumbing.NewTagReferenceName(name)); err == nil {
		kind = "tag"
	}
	msg := fmt.Sprintf("Merge %s '%s'", kind, name)
	if branch != "" && branch != "main" && branch != "master" {
		msg += " into " + branch
	}
	return msg + "\n"
}

// sequencer state of cherry-pick and revert.
type seqOp struct{ name, verb, head string }

func (x *cli) sequencerOp() seqOp {
	if _, ok := x.r.wt.readRaw(".git/REVERT_HEAD"); ok {
		return seqOp{"revert", "reverting", "REVERT_HEAD"}
	}
	return seqOp{"cherry-pick", "cherry-picking", "CHERRY_PICK_HEAD"}
}

func (x *cli) sequencerActive() bool {
	_, a := x.r.wt.readRaw(".git/CHERRY_PICK_HEAD")
	_, b := x.r.wt.readRaw(".git/REVERT_HEAD")
	return a || b
}

var pickOpts = []opt{
	{long: "abort"}, {long: "continue"}, {long: "skip"}, {short: 'n', long: "no-commit", key: "no-commit"},
	{short: 'x', key: "x"}, {short: 'm', long: "mainline", arg: argRequired}, {long: "no-edit", key: "no-edit"}, {short: 'e', long: "edit"},
	{long: "allow-empty"}, {long: "quit"},
}

func cmdCherryPick(x *cli, args []string) int { return x.pick(args, false) }
func cmdRevert(x *cli, args []string) int     { return x.pick(args, true) }

// pick is cherry-pick (or revert) of single commits.
func (x *cli) pick(args []string, revert bool) int {
	name := "cherry-pick"
	if revert {
		name = "revert"
	}
	usage := "usage: git " + name + " [--[no-]edit] [-n] [-m <parent-number>] [-s] [-x] [--[no-]rerere-autoupdate] <commit>...\n" +
		"   or: git " + name + " (--continue | --skip | --abort | --quit)\n"
	if !revert {
		usage = "usage: git cherry-pick [--edit] [-n] [-m <parent-number>] [-s] [-x] [--ff]\n                       [-S[<keyid>]] <commit>...\n   or: git cherry-pick (--continue | --skip | --abort | --quit)\n"
	}
	f, err := parseOpts(args, pickOpts, usage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if o := f.refuse("skip", "quit", "mainline"); o != "" {
		return x.notSupported(name, o)
	}
	headFile := "CHERRY_PICK_HEAD"
	if revert {
		headFile = "REVERT_HEAD"
	}
	_, head := x.head()
	if f.has("abort") {
		orig, ok := x.r.wt.readRaw(".git/" + headFile)
		if !ok {
			x.eprintf("error: no %s in progress\n", name)
			return x.fatal("%s failed", name)
		}
		_ = orig
		cur, _ := x.r.commitFlat(head)
		ix, _ := x.r.readIndex()
		x.twoWay(cur, cur, ix, true)
		x.r.writeIndex(ix)
		x.clearMergeState()
		return 0
	}
	if f.has("continue") {
		if _, ok := x.r.wt.readRaw(".git/" + headFile); !ok {
			x.eprintf("error: no %s in progress\n", name)
			return x.fatal("%s failed", name)
		}
		ix, _ := x.r.readIndex()
		if len(ix.conflicted()) > 0 {
			for _, n := range ix.conflicted() {
				x.eprintf("%s: needs merge\n", n)
			}
			x.eprintf("You must edit all merge conflicts and then\nmark them as resolved using git add\n")
			return 1
		}
		return x.commitPicked(headFile)
	}
	if len(f.pos) != 1 {
		if len(f.pos) == 0 {
			return x.fail(&usageErr{usage: usage})
		}
		return x.fatal("nook's git %ss one commit at a time", name)
	}
	h, err := x.rev(f.pos[0])
	if err != nil {
		return x.fatal("bad revision '%s'", f.pos[0])
	}
	c, err := x.r.CommitObject(h)
	if err != nil {
		return x.fail(err)
	}
	if len(c.ParentHashes) > 1 {
		x.eprintf("error: commit %s is a merge but no -m option was given.\n", h)
		return x.fatal("%s failed", name)
	}
	var parent flat
	if len(c.ParentHashes) == 1 {
		parent, _ = x.r.commitFlat(c.ParentHashes[0])
	} else {
		parent = flat{}
	}
	mine, _ := x.r.treeFlat(c.TreeHash)
	cur, err := x.r.commitFlat(head)
	if err != nil {
		return x.fail(err)
	}
	subj := oneLineSubject(c.Message)
	var m *treeMerge
	var msg string
	if revert {
		m, err = x.mergeTrees(mine, cur, parent, "HEAD", "parent of "+shortHash(h)+" ("+subj+")")
		msg = fmt.Sprintf("Revert \"%s\"\n\nThis reverts commit %s.\n", subj, h)
	} else {
		m, err = x.mergeTrees(parent, cur, mine, "HEAD", shortHash(h)+" ("+subj+")")
		msg = c.Message
		if f.has("x") {
			msg = strings.TrimRight(msg, "\n") + "\n\n(cherry picked from commit " + h.String() + ")\n"
		}
	}
	if err != nil {
		return x.fail(err)
	}
	code, ok := x.applyMerge(cur, m, name)
	if !ok {
		return code
	}
	if len(m.conflicts) > 0 || f.has("no-commit") {
		for _, l := range m.messages {
			x.printf("%s\n", l)
		}
		if f.has("no-commit") && len(m.conflicts) == 0 {
			return 0
		}
		x.r.wt.writeRaw(".git/"+headFile, []byte(h.String()+"\n"))
		mm := cleanMessage(msg) + "\n# Conflicts:\n"
		for _, n := range m.conflicts {
			mm += "#\t" + n + "\n"
		}
		x.r.wt.writeRaw(".git/MERGE_MSG", []byte(mm))
		if revert {
			x.eprintf("error: could not revert %s... %s\n", shortHash(h), subj)
		} else {
			x.eprintf("error: could not apply %s... %s\n", shortHash(h), subj)
		}
		x.eprintf("hint: After resolving the conflicts, mark them with\nhint: \"git add/rm <pathspec>\", then run\nhint: \"git %s --continue\".\nhint: You can instead skip this commit with \"git %s --skip\".\nhint: To abort and get back to the state before \"git %s\",\nhint: run \"git %s --abort\".\n", name, name, name, name)
		return 1
	}
	for _, l := range m.messages {
		x.printf("%s\n", l)
	}
	tree, err := x.r.writeTree(m.files)
	if err != nil {
		return x.fail(err)
	}
	ct, _ := x.r.commitFlat(head)
	if t2, _ := x.r.writeTree(ct); t2 == tree && !f.has("allow-empty") {
		x.eprintf("The previous cherry-pick is now empty, possibly due to conflict resolution.\n")
		return 1
	}
	author := c.Author
	if revert {
		author = x.signature()
	}
	committer := x.signature()
	nh, err := x.r.writeCommit(tree, []plumbing.Hash{head}, author, committer, cleanMessage(msg))
	if err != nil {
		return x.fail(err)
	}
	op := "cherry-pick"
	if revert {
		op = "revert"
	}
	if err := x.moveHead(nh, op+": "+subject(cleanMessage(msg))); err != nil {
		return x.fail(err)
	}
	x.commitSummaryPick(nh, c, revert)
	return 0
}

func (x *cli) commitPicked(headFile string) int {
	h, _ := x.r.wt.readRaw(".git/" + headFile)
	c, err := x.r.CommitObject(plumbing.NewHash(strings.TrimSpace(string(h))))
	if err != nil {
		return x.fail(err)
	}
	msgData, _ := x.r.wt.readRaw(".git/MERGE_MSG")
	ix, _ := x.r.readIndex()
	tree, err := x.r.writeTree(ix.flat())
	if err != nil {
		return x.fail(err)
	}
	_, head := x.head()
	author := c.Author
	if headFile == "REVERT_HEAD" {
		author = x.signature()
	}
	nh, err := x.r.writeCommit(tree, []plumbing.Hash{head}, author, x.signature(), cleanMessage(string(msgData)))
	if err != nil {
		return x.fail(err)
	}
	if err := x.moveHead(nh, "commit: "+subject(cleanMessage(string(msgData)))); err != nil {
		return x.fail(err)
	}
	x.clearMergeState()
	x.commitSummaryPick(nh, c, headFile == "REVERT_HEAD")
	return 0
}

func (x *cli) commitSummaryPick(h plumbing.Hash, orig *object.Commit, revert bool) {
	cm, err := x.r.CommitObject(h)
	if err != nil {
		return
	}
	branch, _ := x.head()
	if branch == "" {
		branch = "detached HEAD"
	}
	x.printf("[%s %s] %s\n", branch, shortHash(h), oneLineSubject(cm.Message))
	if revert || cm.Author.When.Unix() != cm.Committer.When.Unix() {
		x.printf(" Date: %s\n", gitDate(cm.Author.When))
	}
	from, _ := x.r.commitFlat(cm.ParentHashes[0])
	to, _ := x.r.treeFlat(cm.TreeHash)
	pairs := x.diffPairs(from, to, nil, true)
	x.printf("%s%s", shortstatLine(x.numstat(pairs)), summaryLines(pairs))
}
