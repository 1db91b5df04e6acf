package git

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/nookdev/nook/vfs"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

var addOpts = []opt{
	{short: 'A', long: "all"}, {short: 'u', long: "update"}, {short: 'n', long: "dry-run"}, {short: 'v', long: "verbose"},
	{short: 'f', long: "force"}, {short: 'p', long: "patch"}, {short: 'i', long: "interactive"}, {short: 'N', long: "intent-to-add"},
	{long: "ignore-removal"},
}

const addUsage = "usage: git add [<options>] [--] <pathspec>...\n"

func cmdAdd(x *cli, args []string) int {
	f, err := parseOpts(args, addOpts, addUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if f.has("patch") || f.has("interactive") {
		if st, err := x.state(nil, "no"); err == nil {
			unstaged := false
			for _, c := range st.changes {
				unstaged = unstaged || c.y != ' '
			}
			if !unstaged {
				x.eprintf("No changes.\n")
				return 0
			}
		}
		return x.fatal("interactive add (-p, -i) needs a terminal, which nook's git does not have; stage whole files or use git apply --cached")
	}
	if f.has("intent-to-add") {
		return x.fatal("git add -N is not supported by nook's git")
	}
	paths := append(f.pos, f.paths...)
	if len(paths) == 0 && !f.has("all") && !f.has("update") {
		x.eprintf("Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\nhint: Turn this message off by running\nhint: \"git config advice.addEmptyPathspec false\"\n")
		return 0
	}
	ps, err := x.spec(paths)
	if err != nil {
		return x.fail(err)
	}
	ix, err := x.r.readIndex()
	if err != nil {
		return x.fail(err)
	}
	ws, err := x.scan()
	if err != nil {
		return x.fail(err)
	}
	update := f.has("update")
	var ignoredHits []string
	// Files in the worktree.
	names := make([]string, 0, len(ws))
	for n := range ws {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		tracked := ix.get(n) != nil || ix.stages(n) != [4]*ientry{}
		if !ps.match(n) {
			continue
		}
		if !tracked && (update || x.ignoredPath(n)) {
			if !update && !f.has("force") {
				// Named explicitly: git refuses; under a directory: skipped.
				for i, p := range ps.pats {
					if p == n {
						ignoredHits = append(ignoredHits, ps.orig[i])
					}
				}
				continue
			}
			if update {
				continue
			}
		}
		e := ix.get(n)
		w := ws[n]
		if e != nil && e.Mode == w.mode {
			if h, err := x.workHash(n, w, e); err == nil && h == e.Hash {
				continue
			}
		}
		if f.has("dry-run") {
			x.printf("add '%s'\n", n)
			continue
		}
		ne, err := x.entryFor(n, w)
		if err != nil {
			return x.fail(err)
		}
		ix.set(ne)
		if f.has("verbose") {
			x.printf("add '%s'\n", n)
		}
	}
	// Tracked files gone from the worktree (add . records removals too).
	for _, n := range ix.flatNames() {
		if _, ok := ws[n]; ok || !ps.match(n) {
			continue
		}
		if f.has("ignore-removal") {
			continue
		}
		if f.has("dry-run") {
			x.printf("remove '%s'\n", n)
			continue
		}
		ix.remove(n)
		if f.has("verbose") {
			x.printf("remove '%s'\n", n)
		}
	}
	if len(ignoredHits) > 0 {
		x.eprintf("The following paths are ignored by one of your .gitignore files:\n")
		for _, p := range ignoredHits {
			x.eprintf("%s\n", p)
		}
		x.eprintf("hint: Use -f if you really want to add them.\nhint: Turn this message off by running\nhint: \"git config advice.addIgnoredFile false\"\n")
		if !f.has("dry-run") {
			x.r.writeIndex(ix)
		}
		return 1
	}
	if p, ok := ps.unmatched(); ok && !update {
		return x.fatal("pathspec '%s' did not match any files", p)
	}
	if f.has("dry-run") {
		return 0
	}
	if err := x.r.writeIndex(ix); err != nil {
		return x.fail(err)
	}
	return 0
}

var rmOpts = []opt{
	{long: "cached"}, {short: 'r', key: "r"}, {short: 'f', long: "force"}, {short: 'n', long: "dry-run"}, {short: 'q', long: "quiet"},
	{long: "ignore-unmatch"},
}

const rmUsage = "usage: git rm [<options>] [--] <file>...\n"

func cmdRm(x *cli, args []string) int {
	f, err := parseOpts(args, rmOpts, rmUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	paths := append(f.pos, f.paths...)
	if len(paths) == 0 {
		return x.fail(&usageErr{usage: rmUsage})
	}
	ps, err := x.spec(paths)
	if err != nil {
		return x.fail(err)
	}
	ix, err := x.r.readIndex()
	if err != nil {
		return x.fail(err)
	}
	_, head := x.head()
	headFiles, _ := x.r.commitFlat(head)
	var hit []string
	for _, n := range ix.flatNames() {
		if !ps.match(n) {
			continue
		}
		// A directory needs -r.
		for i, p := range ps.pats {
			if strings.HasPrefix(n, p+"/") && ps.res[i] == nil && !f.has("r") {
				return x.fatal("not removing '%s' recursively without -r", ps.orig[i])
			}
		}
		hit = append(hit, n)
	}
	if p, ok := ps.unmatched(); ok && !f.has("ignore-unmatch") {
		return x.fatal("pathspec '%s' did not match any files", p)
	}
	if !f.has("force") {
		var staged, local, both []string
		for _, n := range hit {
			e := ix.get(n)
			if e == nil {
				continue
			}
			h, inHead := headFiles[n]
			stagedChange := !inHead || h.hash != e.Hash || h.mode != e.Mode
			d, _ := x.dirty(n, e)
			if _, ok := x.scanned[n]; !ok {
				d = false
			}
			switch {
			case stagedChange && d:
				both = append(both, n)
			case stagedChange && !f.has("cached") && inHead:
				staged = append(staged, n)
			case stagedChange && !f.has("cached") && !inHead:
				staged = append(staged, n)
			case d && !f.has("cached"):
				local = append(local, n)
			}
		}
		list := func(what string, l []string, hint string) {
			if len(l) == 1 {
				x.eprintf("error: the following file has %s:\n", what)
			} else {
				x.eprintf("error: the following files have %s:\n", what)
			}
			for _, n := range l {
				x.eprintf("    %s\n", x.display(n))
			}
			x.eprintf("%s", hint)
		}
		if len(both) > 0 {
			list("staged content different from both the\nfile and the HEAD", both, "(use -f to force removal)\n")
			return 1
		}
		if len(staged) > 0 {
			list("changes staged in the index", staged, "(use --cached to keep the file, or -f to force removal)\n")
			return 1
		}
		if len(local) > 0 {
			list("local modifications", local, "(use --cached to keep the file, or -f to force removal)\n")
			return 1
		}
	}
	for _, n := range hit {
		if !f.has("quiet") {
			x.printf("rm '%s'\n", n)
		}
		if f.has("dry-run") {
			continue
		}
		ix.remove(n)
		if !f.has("cached") {
			if err := x.removeWork(n); err != nil {
				return x.fail(err)
			}
		}
	}
	if f.has("dry-run") {
		return 0
	}
	if err := x.r.writeIndex(ix); err != nil {
		return x.fail(err)
	}
	return 0
}

var mvOpts = []opt{{short: 'f', long: "force"}, {short: 'n', long: "dry-run"}, {short: 'k', key: "k"}, {short: 'v', long: "verbose"}}

const mvUsage = "usage: git mv [<options>] <source>... <destination>\n"

func cmdMv(x *cli, args []string) int {
	f, err := parseOpts(args, mvOpts, mvUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	paths := append(f.pos, f.paths...)
	if len(paths) < 2 {
		return x.fail(&usageErr{usage: mvUsage})
	}
	ix, err := x.r.readIndex()
	if err != nil {
		return x.fail(err)
	}
	dstArg := paths[len(paths)-1]
	dst, err := x.toRel(dstArg)
	if err != nil {
		return x.fail(err)
	}
	dstIsDir := false
	if fi, err := x.fs().Stat(x.ctx(), path.Join(x.r.root, dst)); err == nil && fi.IsDir() {
		dstIsDir = true
	}
	srcs := paths[:len(paths)-1]
	if len(srcs) > 1 && !dstIsDir {
		return x.fatal("destination '%s' is not a directory", dstArg)
	}
	type move struct{ from, to string }
	var moves []move
	for _, s := range srcs {
		src, err := x.toRel(s)
		if err != nil {
			return x.fail(err)
		}
		to := dst
		if dstIsDir {
			to = path.Join(dst, path.Base(src))
		}
		fi, serr := x.fs().Lstat(x.ctx(), path.Join(x.r.root, src))
		if serr != nil {
			return x.fatal("bad source, source=%s, destination=%s", s, x.display(to))
		}
		if fi.IsDir() {
			found := false
			for _, n := range ix.flatNames() {
				if strings.HasPrefix(n, src+"/") {
					moves = append(moves, move{n, to + strings.TrimPrefix(n, src)})
					found = true
				}
			}
			if !found {
				return x.fatal("source directory is empty, source=%s, destination=%s", s, x.display(to))
			}
			continue
		}
		if ix.get(src) == nil {
			return x.fatal("not under version control, source=%s, destination=%s", s, x.display(to))
		}
		if _, err := x.fs().Lstat(x.ctx(), path.Join(x.r.root, to)); err == nil && !f.has("force") {
			return x.fatal("destination exists, source=%s, destination=%s", s, x.display(to))
		}
		moves = append(moves, move{src, to})
	}
	for _, m := range moves {
		if f.has("verbose") || f.has("dry-run") {
			x.printf("Renaming %s to %s\n", x.display(m.from), x.display(m.to))
		}
		if f.has("dry-run") {
			continue
		}
		e := ix.get(m.from)
		data, err := x.readWork(m.from, wfile{mode: e.Mode})
		if err != nil {
			return x.fail(err)
		}
		if err := x.writeWorkData(m.to, e.Mode, data); err != nil {
			return x.fail(err)
		}
		if err := x.removeWork(m.from); err != nil {
			return x.fail(err)
		}
		ix.remove(m.from)
		ne := *e
		ne.Name = m.to
		x.stampEntry(&ne)
		ix.set(&ne)
	}
	if f.has("dry-run") {
		return 0
	}
	if err := x.r.writeIndex(ix); err != nil {
		return x.fail(err)
	}
	return 0
}

var commitOpts = []opt{
	{short: 'm', long: "message", arg: argRequired}, {short: 'a', long: "all"}, {long: "amend"}, {long: "allow-empty"},
	{long: "allow-empty-message"}, {short: 'q', long: "quiet"}, {long: "author", arg: argRequired}, {long: "date", arg: argRequired},
	{long: "no-edit", key: "no-edit"}, {short: 'F', long: "file", arg: argRequired}, {short: 'v', long: "verbose"},
	{short: 's', long: "signoff"}, {short: 'n', long: "no-verify", key: "no-verify"}, {long: "dry-run"},
	{short: 'e', long: "edit"}, {short: 'C', long: "reuse-message", arg: argRequired}, {short: 'p', long: "patch"},
	{long: "cleanup", arg: argRequired},
}

const commitUsage = "usage: git commit [-a | --interactive | --patch] [-s] [-v] [-u<mode>] [--amend]\n" +
	"                  [--dry-run] [(-c | -C | --squash) <commit> | --fixup [(amend|reword):]<commit>)]\n" +
	"                  [-F <file> | -m <msg>] [--reset-author] [--allow-empty]\n" +
	"                  [--allow-empty-message] [--no-verify] [-e] [--author=<author>]\n" +
	"                  [--date=<date>] [--cleanup=<mode>] [--[no-]status]\n" +
	"                  [-i | -o] [--pathspec-from-file=<file> [--pathspec-file-nul]]\n" +
	"                  [(--trailer <token>[(=|:)<value>])...] [-S[<keyid>]]\n" +
	"                  [--] [<pathspec>...]\n"

// cleanMessage is git's "whitespace" cleanup: trailing spaces, leading
// and trailing blank lines go, runs of blank lines become one.
func cleanMessage(s string) string { return cleanup(s, false) }

// stripMessage is git's "strip" cleanup (the default when an editor is
// involved): whitespace, and "#" comment lines too.
func stripMessage(s string) string { return cleanup(s, true) }

func cleanup(s string, strip bool) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if strip && strings.HasPrefix(l, "#") {
			continue
		}
		if l == "" && (len(lines) == 0 || lines[len(lines)-1] == "") {
			continue
		}
		lines = append(lines, l)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

func cmdCommit(x *cli, args []string) int {
	f, err := parseOpts(args, commitOpts, commitUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if f.has("patch") {
		return x.fatal("interactive commit (-p) needs a terminal, which nook's git does not have")
	}
	msgs := f.all("message")
	msg := strings.Join(msgs, "\n\n")
	if f.has("file") {
		data, err := x.fs().ReadFile(x.ctx(), path.Join(x.cwd, f.str("file")))
		if err != nil {
			return x.fatal("could not read log file '%s': No such file or directory", f.str("file"))
		}
		msg = string(data)
	}
	_, head := x.head()
	// A repeat of a commit that happened (a replay after a crash between
	// the branch update and the call's record): HEAD is a commit of this
	// message at the recorded time on the recorded parent.
	var pc pendingCommit
	if x.c.pending(&pc) && !head.IsZero() && head.String() != pc.Parent {
		if cm, err := x.r.CommitObject(head); err == nil && cm.Committer.When.Unix() == pc.When && x.madeOn(cm, pc.Parent, f.has("amend")) {
			if !f.has("quiet") {
				x.commitSummary(head, false, f.has("amend") || f.has("date"))
			}
			return 0
		}
	}
	var amended *object.Commit
	if f.has("amend") {
		if head.IsZero() {
			return x.fatal("You have nothing to amend.")
		}
		amended, err = x.r.CommitObject(head)
		if err != nil {
			return x.fail(err)
		}
		if len(msgs) == 0 && !f.has("file") {
			msg = amended.Message
		}
	}
	if f.has("reuse-message") {
		h, err := x.rev(f.str("reuse-message"))
		if err != nil {
			return x.fail(err)
		}
		cm, err := x.r.CommitObject(h)
		if err != nil {
			return x.fail(err)
		}
		msg = cm.Message
	}
	mergeHead, merging := x.r.wt.readRaw(".git/MERGE_HEAD")
	if msg == "" && len(msgs) == 0 && !f.has("file") && amended == nil {
		if m, ok := x.r.wt.readRaw(".git/MERGE_MSG"); ok && (merging || x.sequencerActive()) {
			msg = string(m)
		}
	}
	// Without -m, -F or --no-edit git would open an editor; nook's git has
	// none and behaves as one that saves the prepared message unchanged.
	edited := len(msgs) == 0 && !f.has("file") && !f.has("no-edit")
	switch mode := f.str("cleanup"); {
	case mode == "strip" || (mode == "" || mode == "default") && edited:
		msg = stripMessage(msg)
	case mode == "verbatim":
	default:
		msg = cleanMessage(msg)
	}
	if f.has("signoff") && msg != "" {
		name, email := x.identity()
		line := "Signed-off-by: " + name + " <" + email + ">"
		if !strings.Contains(msg, line) {
			msg = strings.TrimRight(msg, "\n") + "\n\n" + line + "\n"
		}
	}
	ix, err := x.r.readIndex()
	if err != nil {
		return x.fail(err)
	}
	if f.has("all") && len(f.pos)+len(f.paths) == 0 && len(ix.conflicted()) > 0 {
		// -a stages every tracked file, which resolves a conflicted
		// path as the worktree has it (git add -u).
		ws, err := x.scan()
		if err != nil {
			return x.fail(err)
		}
		for _, n := range ix.conflicted() {
			w, ok := ws[n]
			if !ok {
				ix.remove(n)
				continue
			}
			ne, err := x.entryFor(n, w)
			if err != nil {
				return x.fail(err)
			}
			ix.set(ne)
		}
	}
	if c := ix.conflicted(); len(c) > 0 {
		for _, n := range c {
			x.printf("U\t%s\n", x.display(n))
		}
		x.eprintf("error: Committing is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use 'git add/rm <file>'\nhint: as appropriate to mark resolution and make a commit.\nfatal: Exiting because of an unresolved conflict.\n")
		return 128
	}
	paths := append(f.pos, f.paths...)
	ps, err := x.spec(paths)
	if err != nil {
		return x.fail(err)
	}
	if f.has("all") || len(paths) > 0 {
		if f.has("all") && len(paths) > 0 {
			return x.fatal("paths '%s ...' with -a does not make sense", paths[0])
		}
		ws, err := x.scan()
		if err != nil {
			return x.fail(err)
		}
		for _, n := range ix.flatNames() {
			if !ps.match(n) {
				continue
			}
			w, ok := ws[n]
			if !ok {
				ix.remove(n)
				continue
			}
			e := ix.get(n)
			if h, err := x.workHash(n, w, e); err == nil && h == e.Hash && w.mode == e.Mode {
				continue
			}
			ne, err := x.entryFor(n, w)
			if err != nil {
				return x.fail(err)
			}
			ix.set(ne)
		}
		if p, ok := ps.unmatched(); ok {
			x.eprintf("error: pathspec '%s' did not match any file(s) known to git\n", p)
			return 1
		}
	}
	tree, err := x.r.writeTree(ix.flat())
	if err != nil {
		return x.fail(err)
	}
	var parents []plumbing.Hash
	parentTree := plumbing.ZeroHash
	if amended != nil {
		parents = amended.ParentHashes
		if len(parents) > 0 {
			p, _ := x.r.CommitObject(parents[0])
			if p != nil {
				parentTree = p.TreeHash
			}
		}
	} else if !head.IsZero() {
		parents = []plumbing.Hash{head}
		p, _ := x.r.CommitObject(head)
		if p != nil {
			parentTree = p.TreeHash
		}
	}
	if merging {
		parents = append(parents, plumbing.NewHash(strings.TrimSpace(string(mergeHead))))
	}
	emptyTree, _ := x.r.writeTree(flat{})
	if parentTree.IsZero() {
		parentTree = emptyTree
	}
	if tree == parentTree && !f.has("allow-empty") && amended == nil && !merging {
		if x.sequencerActive() {
			x.r.wt.removeRaw(".git/CHERRY_PICK_HEAD")
		}
		if head.IsZero() {
			x.statusForCommit(true)
			return 1
		}
		x.statusForCommit(false)
		return 1
	}
	if tree == parentTree && !f.has("allow-empty") && amended != nil && len(amended.ParentHashes) < 2 && !merging {
		if b, _ := x.head(); b != "" {
			x.printf("On branch %s\n", b)
		}
		x.printf("No changes\n")
		x.eprintf("You asked to amend the most recent commit, but doing so would make\n" +
			"it empty. You can repeat your command with --allow-empty, or you can\n" +
			"remove the commit entirely with \"git reset HEAD^\".\n")
		return 1
	}
	if f.has("dry-run") {
		x.statusLongTo(ps)
		return 0
	}
	if msg == "" && !f.has("allow-empty-message") {
		x.eprintf("Aborting commit due to empty commit message.\n")
		return 1
	}
	committer := x.signature()
	author := committer
	if amended != nil {
		author = amended.Author
	}
	if f.has("author") {
		name, email, ok := strings.Cut(f.str("author"), "<")
		if !ok || !strings.HasSuffix(email, ">") {
			return x.fatal("--author '%s' is not 'Name <email>' and matches no existing author", f.str("author"))
		}
		author.Name, author.Email = strings.TrimSpace(name), strings.TrimSuffix(email, ">")
	}
	if f.has("date") {
		t, err := parseDate(f.str("date"))
		if err != nil {
			return x.fatal("invalid date format: %s", f.str("date"))
		}
		author.When = t
	}
	h, err := x.r.writeCommit(tree, parents, author, committer, msg)
	if err != nil {
		return x.fail(err)
	}
	if err := x.r.writeIndex(ix); err != nil {
		return x.fail(err)
	}
	kind := "commit"
	switch {
	case amended != nil:
		kind = "commit (amend)"
	case len(parents) == 0:
		kind = "commit (initial)"
	case merging:
		kind = "commit (merge)"
	}
	if err := x.moveHead(h, kind+": "+subject(msg)); err != nil {
		return x.fail(err)
	}
	x.r.wt.removeRaw(".git/MERGE_HEAD")
	x.r.wt.removeRaw(".git/MERGE_MSG")
	x.r.wt.removeRaw(".git/MERGE_MODE")
	x.r.wt.removeRaw(".git/CHERRY_PICK_HEAD")
	x.r.wt.removeRaw(".git/REVERT_HEAD")
	x.r.wt.removeRaw(".git/AUTO_MERGE")
	if !f.has("quiet") {
		x.commitSummary(h, len(parents) == 0 && amended == nil, amended != nil || f.has("date"))
	}
	return 0
}

// madeOn reports whether cm is a commit made on parent (or, amending,
// one that replaced parent).
func (x *cli) madeOn(cm *object.Commit, parent string, amend bool) bool {
	first := plumbing.ZeroHash
	if len(cm.ParentHashes) > 0 {
		first = cm.ParentHashes[0]
	}
	if !amend {
		return first.String() == parent
	}
	old, err := x.r.CommitObject(plumbing.NewHash(parent))
	if err != nil {
		return false
	}
	if len(old.ParentHashes) == 0 {
		return first.IsZero()
	}
	return first == old.ParentHashes[0]
}

// statusForCommit prints what git commit prints when there is nothing to
// commit: the long status (to stdout).
func (x *cli) statusForCommit(initial bool) {
	st, err := x.state(nil, "normal")
	if err != nil {
		return
	}
	x.statusLong(st, "normal")
}

func (x *cli) statusLongTo(ps *pathspec) {
	st, err := x.state(ps, "normal")
	if err == nil {
		x.statusLong(st, "normal")
	}
}

// commitSummary prints "[main abc1234] subject" and the diffstat summary.
func (x *cli) commitSummary(h plumbing.Hash, root, amend bool) {
	cm, err := x.r.CommitObject(h)
	if err != nil {
		return
	}
	branch, _ := x.head()
	if branch == "" {
		branch = "detached HEAD"
	}
	extra := ""
	if root {
		extra = " (root-commit)"
	}
	x.printf("[%s%s %s] %s\n", branch, extra, shortHash(h), oneLineSubject(cm.Message))
	if amend {
		x.printf(" Date: %s\n", gitDate(cm.Author.When))
	}
	if len(cm.ParentHashes) > 1 {
		return
	}
	var from flat
	if len(cm.ParentHashes) > 0 {
		from, _ = x.r.commitFlat(cm.ParentHashes[0])
	} else {
		from = flat{}
	}
	to, _ := x.r.treeFlat(cm.TreeHash)
	pairs := x.diffPairs(from, to, nil, true)
	stats := x.numstat(pairs)
	x.printf("%s", shortstatLine(stats))
	x.printf("%s", summaryLines(pairs))
}

// summaryLines lists created and deleted files and mode changes, as
// git's --summary (and commit) does.
func summaryLines(pairs []*pair) string {
	var b strings.Builder
	for _, p := range pairs {
		switch {
		case p.status == 'A':
			fmt.Fprintf(&b, " create mode %s %s\n", modeText(p.b.mode), p.bpath)
		case p.status == 'D':
			fmt.Fprintf(&b, " delete mode %s %s\n", modeText(p.a.mode), p.apath)
		case p.status == 'R':
			fmt.Fprintf(&b, " rename %s (%d%%)\n", renameText(p.apath, p.bpath), p.score*100/maxScore)
		case p.a.mode != p.b.mode:
			fmt.Fprintf(&b, " mode change %s => %s %s\n", modeText(p.a.mode), modeText(p.b.mode), p.bpath)
		}
	}
	return b.String()
}

func oneLineSubject(msg string) string {
	para, _, _ := strings.Cut(strings.TrimLeft(msg, "\n"), "\n\n")
	return strings.Join(strings.Fields(strings.ReplaceAll(para, "\n", " ")), " ")
}

var resetOpts = []opt{
	{long: "soft"}, {long: "mixed"}, {long: "hard"}, {long: "merge"}, {long: "keep"}, {short: 'q', long: "quiet"},
	{short: 'p', long: "patch"},
}

const resetUsage = "usage: git reset [--mixed | --soft | --hard | --merge | --keep] [-q] [<commit>]\n" +
	"   or: git reset [-q] [<tree-ish>] [--] <pathspec>...\n" +
	"   or: git reset [-q] [--pathspec-from-file [--pathspec-file-nul]] [<tree-ish>]\n" +
	"   or: git reset --patch [<tree-ish>] [--] [<pathspec>...]\n"

func cmdReset(x *cli, args []string) int {
	f, err := parseOpts(args, resetOpts, resetUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if f.has("patch") {
		return x.fatal("interactive reset (-p) needs a terminal, which nook's git does not have")
	}
	mode := "mixed"
	for _, m := range []string{"soft", "hard", "merge", "keep"} {
		if f.has(m) {
			mode = m
		}
	}
	if mode == "merge" || mode == "keep" {
		return x.fatal("git reset --%s is not supported by nook's git (use --hard or --mixed)", mode)
	}
	pos := f.pos
	rev := "HEAD"
	var paths []string
	if len(pos) > 0 {
		if _, err := x.rev(pos[0]); err == nil {
			rev, paths = pos[0], pos[1:]
		} else if f.dashdash {
			return x.fail(err)
		} else {
			paths = pos
			for _, p := range pos {
				if _, err := x.fs().Lstat(x.ctx(), path.Join(x.cwd, p)); err != nil {
					return x.fail(ambiguous(p))
				}
			}
		}
	}
	paths = append(paths, f.paths...)
	_, head := x.head()
	target := plumbing.ZeroHash
	if rev != "HEAD" || !head.IsZero() {
		target, err = x.rev(rev)
		if err != nil {
			return x.fail(err)
		}
	}
	ix, err := x.r.readIndex()
	if err != nil {
		return x.fail(err)
	}
	to, err := x.r.commitFlat(target)
	if err != nil {
		return x.fail(err)
	}
	if len(paths) > 0 {
		if mode != "mixed" {
			return x.fatal("Cannot do %s reset with paths.", mode)
		}
		ps, err := x.spec(paths)
		if err != nil {
			return x.fail(err)
		}
		for _, n := range ix.flatNames() {
			if ps.match(n) {
				if _, ok := to[n]; !ok {
					ix.remove(n)
				}
			}
		}
		for n, t := range to {
			if ps.match(n) {
				if e := ix.get(n); e != nil && e.Hash == t.hash && e.Mode == t.mode {
					continue
				}
				ix.set(&ientry{Name: n, Hash: t.hash, Mode: t.mode})
			}
		}
		if err := x.r.writeIndex(ix); err != nil {
			return x.fail(err)
		}
		if !f.has("quiet") {
			x.unstagedAfterReset()
		}
		return 0
	}
	switch mode {
	case "hard":
		from, _ := x.r.commitFlat(head)
		if err := x.twoWay(from, to, ix, true); err != nil {
			return x.fail(err)
		}
	case "mixed":
		ix.fromFlat(to)
	}
	if mode != "soft" {
		if err := x.r.writeIndex(ix); err != nil {
			return x.fail(err)
		}
	} else if len(ix.conflicted()) > 0 || x.mergeInProgress() {
		return x.fatal("Cannot do a soft reset in the middle of a merge.")
	}
	if !head.IsZero() && target != head {
		x.r.wt.writeRaw(".git/ORIG_HEAD", []byte(head.String()+"\n"))
	}
	if err := x.moveHead(target, "reset: moving to "+rev); err != nil {
		return x.fail(err)
	}
	x.clearMergeState()
	if f.has("quiet") {
		return 0
	}
	switch mode {
	case "hard":
		cm, err := x.r.CommitObject(target)
		if err == nil {
			x.printf("HEAD is now at %s %s\n", shortHash(target), oneLineSubject(cm.Message))
		}
	case "mixed":
		x.unstagedAfterReset()
	}
	return 0
}

// unstagedAfterReset prints "Unstaged changes after reset:" and the list.
func (x *cli) unstagedAfterReset() {
	st, err := x.state(nil, "no")
	if err != nil {
		return
	}
	var lines []string
	for _, c := range st.changes {
		if c.y != ' ' {
			lines = append(lines, fmt.Sprintf("%c\t%s\n", c.y, x.display(c.path)))
		}
	}
	if len(lines) > 0 {
		x.printf("Unstaged changes after reset:\n%s", strings.Join(lines, ""))
	}
}

func (x *cli) mergeInProgress() bool {
	_, ok := x.r.wt.readRaw(".git/MERGE_HEAD")
	return ok
}

func (x *cli) clearMergeState() {
	for _, n := range []string{"MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "CHERRY_PICK_HEAD", "REVERT_HEAD", "AUTO_MERGE"} {
		x.r.wt.removeRaw(".git/" + n)
	}
}

var restoreOpts = []opt{
	{short: 's', long: "source", arg: argRequired}, {short: 'S', long: "staged"}, {short: 'W', long: "worktree"},
	{short: 'q', long: "quiet"}, {short: 'p', long: "patch"}, {long: "ours"}, {long: "theirs"}, {short: 'm', long: "merge"},
}

const restoreUsage = "usage: git restore [<options>] [--source=<branch>] <file>...\n"

func cmdRestore(x *cli, args []string) int {
	f, err := parseOpts(args, restoreOpts, restoreUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if f.has("patch") {
		return x.fatal("interactive restore (-p) needs a terminal, which nook's git does not have")
	}
	paths := append(f.pos, f.paths...)
	if len(paths) == 0 {
		return x.fatal("you must specify path(s) to restore")
	}
	staged, worktree := f.has("staged"), f.has("worktree") || !f.has("staged")
	return x.restorePaths(paths, f.str("source"), staged, worktree, f.has("ours"), f.has("theirs"))
}

// restorePaths is restore and checkout's "-- paths" form.
func (x *cli) restorePaths(paths []string, source string, staged, worktree, ours, theirs bool) int {
	ps, err := x.spec(paths)
	if err != nil {
		return x.fail(err)
	}
	ix, err := x.r.readIndex()
	if err != nil {
		return x.fail(err)
	}
	var from flat
	fromIndex := source == "" && !staged
	if fromIndex {
		from = ix.flat()
	} else {
		rev := source
		if rev == "" {
			rev = "HEAD"
		}
		h, err := x.rev(rev)
		if err != nil {
			if source == "" {
				h = plumbing.ZeroHash
			} else {
				return x.fatal("could not resolve %s", source)
			}
		}
		if from, err = x.r.commitFlat(h); err != nil {
			return x.fail(err)
		}
	}
	matched := map[string]bool{}
	for n := range from {
		if ps.match(n) {
			matched[n] = true
		}
	}
	for _, n := range ix.flatNames() {
		if ps.match(n) {
			matched[n] = true
		}
	}
	if fromIndex {
		for _, n := range ix.conflicted() {
			if ps.match(n) && !ours && !theirs {
				x.eprintf("error: path '%s' is unmerged\n", n)
				return 1
			}
		}
	}
	if p, ok := ps.unmatched(); ok {
		x.eprintf("error: pathspec '%s' did not match any file(s) known to git\n", p)
		return 1
	}
	names := make([]string, 0, len(matched))
	for n := range matched {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t, in := from[n]
		if ours || theirs {
			st := ix.stages(n)
			k := 2
			if theirs {
				k = 3
			}
			if st[k] == nil {
				x.eprintf("error: path '%s' does not have %s version\n", n, map[int]string{2: "our", 3: "their"}[k])
				return 1
			}
			t, in = tfile{st[k].Hash, st[k].Mode}, true
		}
		if staged {
			if in {
				if e := ix.get(n); e == nil || e.Hash != t.hash || e.Mode != t.mode {
					ix.set(&ientry{Name: n, Hash: t.hash, Mode: t.mode})
				}
			} else {
				ix.remove(n)
			}
		}
		if worktree {
			if in {
				if err := x.writeWork(n, t); err != nil {
					return x.fail(err)
				}
				if staged || source == "" && !ours && !theirs {
					if e := ix.get(n); e != nil && e.Hash == t.hash {
						x.stampEntry(e)
					}
				}
			} else if !fromIndex {
				x.removeWork(n)
			}
		}
	}
	if err := x.r.writeIndex(ix); err != nil {
		return x.fail(err)
	}
	return 0
}

var cleanOpts = []opt{
	{short: 'n', long: "dry-run"}, {short: 'f', long: "force"}, {short: 'd', key: "d"}, {short: 'x', key: "x"},
	{short: 'X', key: "X"}, {short: 'q', long: "quiet"}, {short: 'i', long: "interactive"}, {short: 'e', long: "exclude", arg: argRequired},
}

const cleanUsage = "usage: git clean [-d] [-f] [-i] [-n] [-q] [-e <pattern>] [-x | -X] [--] [<pathspec>...]\n"

func cmdClean(x *cli, args []string) int {
	f, err := parseOpts(args, cleanOpts, cleanUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if f.has("interactive") {
		return x.fatal("interactive clean (-i) needs a terminal, which nook's git does not have")
	}
	if !f.has("force") && !f.has("dry-run") {
		return x.fatal("clean.requireForce defaults to true and neither -i, -n, nor -f given; refusing to clean")
	}
	ps, err := x.spec(append(f.pos, f.paths...))
	if err != nil {
		return x.fail(err)
	}
	ix, err := x.r.readIndex()
	if err != nil {
		return x.fail(err)
	}
	ws, err := x.scan()
	if err != nil {
		return x.fail(err)
	}
	trackedDirs := map[string]bool{}
	tracked := map[string]bool{}
	for _, e := range ix.entries {
		tracked[e.Name] = true
		for d := dirOf(e.Name); d != ""; d = dirOf(d) {
			trackedDirs[d] = true
		}
	}
	var victims []string
	seen := map[string]bool{}
	for n := range ws {
		if tracked[n] {
			continue
		}
		ign := x.ignoredPath(n)
		if (ign && !f.has("x") && !f.has("X")) || (!ign && f.has("X")) {
			continue
		}
		show := n
		parts := strings.Split(n, "/")
		for i := 1; i < len(parts); i++ {
			d := strings.Join(parts[:i], "/")
			if !trackedDirs[d] {
				show = d + "/"
				break
			}
		}
		if strings.HasSuffix(show, "/") && !f.has("d") {
			continue
		}
		if !ps.match(n) {
			continue
		}
		if !seen[show] {
			seen[show] = true
			victims = append(victims, show)
		}
	}
	sort.Strings(victims)
	for _, v := range victims {
		d := x.display(strings.TrimSuffix(v, "/"))
		if strings.HasSuffix(v, "/") {
			d += "/"
		}
		if f.has("dry-run") {
			x.printf("Would remove %s\n", d)
			continue
		}
		if !f.has("quiet") {
			x.printf("Removing %s\n", d)
		}
		if strings.HasSuffix(v, "/") {
			for n := range ws {
				if strings.HasPrefix(n, v) {
					x.touch(n)
				}
			}
			x.touch(strings.TrimSuffix(v, "/"))
			x.invalidate()
			x.fs().Remove(x.ctx(), path.Join(x.r.root, v), nil)
			x.fs().Remove(x.ctx(), path.Join(x.r.root, strings.TrimSuffix(v, "/")), &vfs.RemoveOptions{Recursive: true, Force: true})
			continue
		}
		x.removeWork(v)
	}
	return 0
}

var lsFilesOpts = []opt{
	{short: 'c', long: "cached"}, {short: 'm', long: "modified"}, {short: 'o', long: "others"}, {short: 'd', long: "deleted"},
	{short: 's', long: "stage"}, {short: 'u', long: "unmerged"}, {long: "exclude-standard"}, {short: 'z', key: "z"},
	{short: 'i', long: "ignored"},
}

func cmdLsFiles(x *cli, args []string) int {
	f, err := parseOpts(args, lsFilesOpts, "usage: git ls-files [<options>] [<file>...]\n", false, "")
	if err != nil {
		return x.fail(err)
	}
	if o := f.refuse("z", "ignored"); o != "" {
		return x.notSupported("ls-files", o)
	}
	ps, err := x.spec(append(f.pos, f.paths...))
	if err != nil {
		return x.fail(err)
	}
	ix, err := x.r.readIndex()
	if err != nil {
		return x.fail(err)
	}
	prefixOK := func(n string) bool { return x.prefix == "" || strings.HasPrefix(n, x.prefix+"/") }
	if f.has("others") {
		ws, _ := x.scan()
		var names []string
		for n := range ws {
			if ix.get(n) == nil && ix.stages(n) == [4]*ientry{} && prefixOK(n) && ps.match(n) {
				if f.has("exclude-standard") && x.ignoredPath(n) {
					continue
				}
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			x.printf("%s\n", x.display(n))
		}
		return 0
	}
	for _, e := range ix.entries {
		if !prefixOK(e.Name) || !ps.match(e.Name) {
			continue
		}
		if f.has("unmerged") && e.Stage == 0 {
			continue
		}
		if f.has("deleted") || f.has("modified") {
			d, _ := x.dirty(e.Name, e)
			_, present := x.scanned[e.Name]
			if !d || (f.has("deleted") && !f.has("modified") && present) {
				continue
			}
		}
		if f.has("stage") || f.has("unmerged") {
			x.printf("%s %s %d\t%s\n", modeText(e.Mode), e.Hash, e.Stage, x.display(e.Name))
			continue
		}
		if e.Stage > 1 {
			continue
		}
		x.printf("%s\n", x.display(e.Name))
	}
	return 0
}

func cmdConfig(x *cli, args []string) int {
	f, err := parseOpts(args, []opt{{long: "local"}, {long: "get"}, {short: 'l', long: "list"}, {long: "unset"},
		{long: "global"}, {long: "system"}, {long: "bool"}},
		"usage: git config [<options>]\n", false, "")
	if err != nil {
		return x.fail(err)
	}
	if f.has("global") || f.has("system") {
		return x.fatal("nook's git has only the repository's configuration (--local)")
	}
	data, _ := x.r.wt.readRaw(".git/config")
	if f.has("list") {
		x.printf("%s", configList(string(data)))
		return 0
	}
	switch len(f.pos) {
	case 1:
		if !strings.Contains(f.pos[0], ".") {
			x.eprintf("error: key does not contain a section: %s\n", f.pos[0])
			return 1
		}
		if f.has("unset") {
			out, found := configUnset(string(data), f.pos[0])
			if !found {
				return 5
			}
			if err := x.r.wt.writeRaw(".git/config", []byte(out)); err != nil {
				return x.fail(err)
			}
			return 0
		}
		v := configGet(string(data), f.pos[0])
		if v == "" {
			return 1
		}
		x.printf("%s\n", v)
		return 0
	case 2:
		if !strings.Contains(f.pos[0], ".") {
			x.eprintf("error: key does not contain a section: %s\n", f.pos[0])
			return 1
		}
		out := configSet(string(data), f.pos[0], f.pos[1])
		if err := x.r.wt.writeRaw(".git/config", []byte(out)); err != nil {
			return x.fail(err)
		}
		return 0
	}
	return x.fail(&usageErr{usage: "usage: git config [<options>]\n"})
}

func configList(text string) string {
	var b strings.Builder
	cur := ""
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, ";") {
			continue
		}
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			h := strings.TrimSpace(l[1 : len(l)-1])
			if s, sub, ok := strings.Cut(h, " "); ok {
				cur = strings.ToLower(s) + "." + strings.Trim(strings.TrimSpace(sub), `"`)
			} else {
				cur = strings.ToLower(h)
			}
			continue
		}
		k, v, _ := strings.Cut(l, "=")
		fmt.Fprintf(&b, "%s.%s=%s\n", cur, strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v))
	}
	return b.String()
}

func cmdShowRef(x *cli, args []string) int {
	f, err := parseOpts(args, []opt{{long: "heads"}, {long: "tags"}, {short: 's', long: "hash", arg: argOptional}, {long: "verify"}, {short: 'q', long: "quiet"}},
		"usage: git show-ref [-q | --quiet] [--verify] [--head] [-d | --dereference] [-s | --hash[=<n>]] [--abbrev[=<n>]] [--tags] [--heads] [--] [<pattern>...]\n", false, "")
	if err != nil {
		return x.fail(err)
	}
	found := false
	for _, r := range x.refs("refs/") {
		n := r.Name().String()
		if f.has("heads") && !f.has("tags") && !r.Name().IsBranch() || f.has("tags") && !f.has("heads") && !r.Name().IsTag() || n == "refs/stash" {
			continue
		}
		if len(f.pos) > 0 {
			ok := false
			for _, p := range f.pos {
				if f.has("verify") && n == p || !f.has("verify") && (n == p || strings.HasSuffix(n, "/"+p)) {
					ok = true
				}
			}
			if !ok {
				continue
			}
		}
		found = true
		if f.has("quiet") {
			continue
		}
		if f.has("hash") {
			x.printf("%s\n", r.Hash())
		} else {
			x.printf("%s %s\n", r.Hash(), n)
		}
	}
	if !found {
		if f.has("verify") && !f.has("quiet") && len(f.pos) > 0 {
			return x.fatal("'%s' - not a valid ref", f.pos[0])
		}
		return 1
	}
	return 0
}

func gitDate(t time.Time) string { return t.Format("Mon Jan 2 15:04:05 2006 -0700") }
