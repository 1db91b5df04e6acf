package git

import (
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// change is one path's state: X against HEAD, Y against the index.
type change struct {
	path, orig string // orig: the source of a rename
	x, y       byte   // ' ', 'M', 'A', 'D', 'R', 'T', 'U', '?'
	unmerged   string // "UU", "AA", ... when conflicted
	score      int    // a rename's similarity, out of maxScore
	head, idx  tfile
	inHead     bool
	inIdx      bool
	workMode   filemode.FileMode
	workHash   plumbing.Hash
	inWork     bool
}

// state is what status reports.
type state struct {
	changes   []*change // tracked changes, sorted by path
	untracked []string  // collapsed to directories, sorted
	head      plumbing.Hash
	branch    string
}

// untrackedMode: "no", "normal" (directories collapsed) or "all".
func (x *cli) state(ps *pathspec, untrackedMode string) (*state, error) {
	st := &state{}
	st.branch, st.head = x.head()
	headFiles, err := x.r.commitFlat(st.head)
	if err != nil {
		return nil, err
	}
	ix, err := x.r.readIndex()
	if err != nil {
		return nil, err
	}
	ws, err := x.scan()
	if err != nil {
		return nil, err
	}
	byPath := map[string]*change{}
	get := func(p string) *change {
		c := byPath[p]
		if c == nil {
			c = &change{path: p, x: ' ', y: ' '}
			byPath[p] = c
		}
		return c
	}
	idxFiles := ix.flat()
	conflicted := map[string]bool{}
	for _, n := range ix.conflicted() {
		conflicted[n] = true
		if !ps.match(n) {
			continue
		}
		s := ix.stages(n)
		code := map[[3]bool]string{
			{true, true, true}: "UU", {false, true, true}: "AA", {true, false, true}: "DU",
			{true, true, false}: "UD", {false, true, false}: "AU", {false, false, true}: "UA", {true, false, false}: "DD",
		}[[3]bool{s[1] != nil, s[2] != nil, s[3] != nil}]
		c := get(n)
		c.unmerged, c.x, c.y = code, code[0], code[1]
	}
	// HEAD against the index.
	var added, deleted []string
	for n, h := range headFiles {
		if conflicted[n] || !ps.match(n) {
			continue
		}
		i, ok := idxFiles[n]
		switch {
		case !ok:
			deleted = append(deleted, n)
		case i != h:
			c := get(n)
			c.x = 'M'
			if (i.mode == filemode.Symlink) != (h.mode == filemode.Symlink) {
				c.x = 'T'
			}
			c.head, c.inHead, c.idx, c.inIdx = h, true, i, true
		}
	}
	for n, i := range idxFiles {
		if _, ok := headFiles[n]; !ok && ps.match(n) {
			added = append(added, n)
			_ = i
		}
	}
	sort.Strings(added)
	sort.Strings(deleted)
	used := map[string]bool{}
	for _, a := range added {
		c := get(a)
		c.x, c.idx, c.inIdx = 'A', idxFiles[a], true
		for _, d := range deleted {
			if !used[d] && headFiles[d] == idxFiles[a] {
				used[d] = true
				c.x, c.orig, c.head, c.inHead, c.score = 'R', d, headFiles[d], true, maxScore
				break
			}
		}
	}
	// Then renames by content.
	var srcs, dsts []string
	var sdata, ddata [][]byte
	for _, d := range deleted {
		if !used[d] && headFiles[d].mode != filemode.Symlink {
			if b, err := x.r.readBlob(headFiles[d].hash); err == nil {
				srcs, sdata = append(srcs, d), append(sdata, b)
			}
		}
	}
	for _, a := range added {
		if c := byPath[a]; c.x == 'A' && idxFiles[a].mode != filemode.Symlink && len(srcs) > 0 {
			if b, err := x.r.readBlob(idxFiles[a].hash); err == nil {
				dsts, ddata = append(dsts, a), append(ddata, b)
			}
		}
	}
	for _, rc := range pairRenames(sdata, ddata) {
		d, a := srcs[rc.src], dsts[rc.dst]
		used[d] = true
		c := byPath[a]
		c.x, c.orig, c.head, c.inHead, c.score = 'R', d, headFiles[d], true, rc.score
	}
	for _, d := range deleted {
		if !used[d] {
			c := get(d)
			c.x, c.head, c.inHead = 'D', headFiles[d], true
		}
	}
	// The index against the worktree.
	for _, e := range ix.entries {
		if e.Stage != 0 || !ps.match(e.Name) {
			continue
		}
		w, ok := ws[e.Name]
		if !ok {
			get(e.Name).y = 'D'
			continue
		}
		h, err := x.workHash(e.Name, w, e)
		if err != nil {
			return nil, err
		}
		if h != e.Hash || w.mode != e.Mode {
			c := get(e.Name)
			c.y = 'M'
			if (w.mode == filemode.Symlink) != (e.Mode == filemode.Symlink) {
				c.y = 'T'
			}
			c.workMode, c.workHash, c.inWork = w.mode, h, true
		}
	}
	for _, c := range byPath {
		st.changes = append(st.changes, c)
	}
	sort.Slice(st.changes, func(i, j int) bool { return st.changes[i].path < st.changes[j].path })
	if untrackedMode != "no" {
		tracked := map[string]bool{}
		trackedDirs := map[string]bool{}
		for _, e := range ix.entries {
			tracked[e.Name] = true
			for d := dirOf(e.Name); d != ""; d = dirOf(d) {
				trackedDirs[d] = true
			}
		}
		seen := map[string]bool{}
		for n := range ws {
			if tracked[n] || x.ignoredPath(n) {
				continue
			}
			show := n
			if untrackedMode != "all" {
				parts := strings.Split(n, "/")
				for i := 1; i < len(parts); i++ {
					d := strings.Join(parts[:i], "/")
					if !trackedDirs[d] {
						show = d + "/"
						break
					}
				}
			}
			if !ps.match(strings.TrimSuffix(show, "/")) && !ps.match(n) {
				continue
			}
			if !seen[show] {
				seen[show] = true
				st.untracked = append(st.untracked, show)
			}
		}
		sort.Strings(st.untracked)
	}
	return st, nil
}

// ignoredPath reports whether an untracked file, or a directory above it,
// is ignored.
func (x *cli) ignoredPath(n string) bool {
	parts := strings.Split(n, "/")
	for i := 1; i < len(parts); i++ {
		if x.ignored(strings.Join(parts[:i], "/"), true) {
			return true
		}
	}
	return x.ignored(n, false)
}

var statusOpts = []opt{
	{short: 's', long: "short"}, {short: 'b', long: "branch"}, {long: "porcelain", arg: argOptional},
	{short: 'u', long: "untracked-files", arg: argOptional}, {long: "long"}, {short: 'z', key: "z"},
	{long: "ignored", arg: argOptional}, {long: "show-stash"}, {short: 'v', long: "verbose"}, {long: "no-renames", key: "no-renames"},
	{long: "ahead-behind"},
}

const statusUsage = "usage: git status [<options>] [--] [<pathspec>...]\n"

func cmdStatus(x *cli, args []string) int {
	f, err := parseOpts(args, statusOpts, statusUsage, false, "")
	if err != nil {
		return x.fail(err)
	}
	if o := f.refuse("show-stash"); o != "" {
		return x.notSupported("status", o)
	}
	if f.has("ignored") && f.str("ignored") != "no" {
		return x.notSupported("status", "ignored")
	}
	ps, err := x.spec(append(f.pos, f.paths...))
	if err != nil {
		return x.fail(err)
	}
	um := "normal"
	if f.has("untracked-files") {
		switch v := f.str("untracked-files"); v {
		case "", "all":
			um = "all"
		case "no", "normal":
			um = v
		default:
			return x.fatal("Invalid untracked files mode '%s'", v)
		}
	}
	st, err := x.state(ps, um)
	if err != nil {
		return x.fail(err)
	}
	porcelain := f.has("porcelain")
	switch {
	case porcelain && f.str("porcelain") == "v2":
		x.statusV2(st, f.has("branch"))
	case porcelain || f.has("z") || (f.has("short") && !f.has("long")):
		if v := f.str("porcelain"); porcelain && v != "" && v != "v1" {
			return x.fatal("unsupported porcelain version '%s'", v)
		}
		x.statusShort(st, f.has("branch"), porcelain || f.has("z"))
		if f.has("z") {
			text := x.out.String()
			x.out.Reset()
			for _, l := range strings.SplitAfter(text, "\n") {
				if l == "" {
					continue
				}
				l = strings.TrimSuffix(l, "\n")
				if from, to, ok := strings.Cut(l[3:], " -> "); ok && !strings.HasPrefix(l, "##") {
					l = l[:3] + to + "\x00" + from
				}
				x.out.WriteString(l + "\x00")
			}
		}
	default:
		x.statusLong(st, um)
	}
	return 0
}

func (x *cli) statusShort(st *state, branch, porcelain bool) {
	show := x.display
	if porcelain {
		show = func(s string) string { return s }
	}
	if branch {
		switch {
		case st.head.IsZero():
			x.printf("## No commits yet on %s\n", st.branch)
		case st.branch == "":
			x.printf("## HEAD (no branch)\n")
		default:
			if up, counts, ok := x.trackingShort(st.branch, st.head); ok {
				if counts != "" {
					counts = " [" + counts + "]"
				}
				x.printf("## %s...%s%s\n", st.branch, up, counts)
			} else {
				x.printf("## %s\n", st.branch)
			}
		}
	}
	for _, c := range st.changes {
		if c.orig != "" {
			x.printf("%c%c %s -> %s\n", c.x, c.y, show(c.orig), show(c.path))
			continue
		}
		x.printf("%c%c %s\n", c.x, c.y, show(c.path))
	}
	for _, u := range st.untracked {
		d := show(strings.TrimSuffix(u, "/"))
		if strings.HasSuffix(u, "/") {
			d += "/"
		}
		x.printf("?? %s\n", d)
	}
}

func (x *cli) statusV2(st *state, branch bool) {
	if branch {
		if st.head.IsZero() {
			x.printf("# branch.oid (initial)\n")
		} else {
			x.printf("# branch.oid %s\n", st.head)
		}
		if st.branch == "" {
			x.printf("# branch.head (detached)\n")
		} else {
			x.printf("# branch.head %s\n", st.branch)
		}
	}
	dot := func(b byte) byte {
		if b == ' ' {
			return '.'
		}
		return b
	}
	ix, _ := x.r.readIndex()
	for _, c := range st.changes {
		if c.unmerged != "" {
			s := ix.stages(c.path)
			var m [4]string
			var h [4]string
			for i := 1; i <= 3; i++ {
				m[i], h[i] = "000000", plumbing.ZeroHash.String()
				if s[i] != nil {
					m[i], h[i] = modeText(s[i].Mode), s[i].Hash.String()
				}
			}
			mw := m[2]
			if w, ok := x.scanned[c.path]; ok {
				mw = modeText(w.mode)
			}
			x.printf("u %s N... %s %s %s %s %s %s %s %s\n", c.unmerged, m[1], m[2], m[3], mw, h[1], h[2], h[3], c.path)
			continue
		}
		mH, hH := "000000", plumbing.ZeroHash.String()
		headF, _ := x.r.commitFlat(st.head)
		hk := c.path
		if c.orig != "" {
			hk = c.orig
		}
		if f, ok := headF[hk]; ok {
			mH, hH = modeText(f.mode), f.hash.String()
		}
		mI, hI := "000000", plumbing.ZeroHash.String()
		if e := ix.get(c.path); e != nil {
			mI, hI = modeText(e.Mode), e.Hash.String()
		}
		mW := mI
		if c.y == 'D' {
			mW = "000000"
		} else if c.inWork {
			mW = modeText(c.workMode)
		}
		if c.orig != "" {
			x.printf("2 %c%c N... %s %s %s %s %s R%d %s\t%s\n", dot(c.x), dot(c.y), mH, mI, mW, hH, hI, c.score*100/maxScore, c.path, c.orig)
			continue
		}
		x.printf("1 %c%c N... %s %s %s %s %s %s\n", dot(c.x), dot(c.y), mH, mI, mW, hH, hI, c.path)
	}
	for _, u := range st.untracked {
		x.printf("? %s\n", u)
	}
}

func statusLabel(code byte) string {
	switch code {
	case 'M':
		return "modified:   "
	case 'A':
		return "new file:   "
	case 'D':
		return "deleted:    "
	case 'R':
		return "renamed:    "
	case 'T':
		return "typechange: "
	}
	return string(code)
}

func unmergedLabel(code string) string {
	return map[string]string{"UU": "both modified:   ", "AA": "both added:      ", "DU": "deleted by us:   ",
		"UD": "deleted by them: ", "AU": "added by us:     ", "UA": "added by them:   ", "DD": "both deleted:    "}[code]
}

func (x *cli) statusLong(st *state, um string) {
	if st.branch == "" {
		if n, ok := x.detachedAt(st.head); ok {
			x.printf("HEAD detached at %s\n", n)
		} else {
			x.printf("HEAD detached from %s\n", n)
		}
	} else {
		x.printf("On branch %s\n", st.branch)
		x.printf("%s", x.trackingLong(st.branch, st.head))
	}
	merging := false
	if _, ok := x.r.wt.readRaw(".git/MERGE_HEAD"); ok {
		merging = true
	}
	var unmerged, staged, unstaged []*change
	for _, c := range st.changes {
		switch {
		case c.unmerged != "":
			unmerged = append(unmerged, c)
		default:
			if c.x != ' ' {
				staged = append(staged, c)
			}
			if c.y != ' ' {
				unstaged = append(unstaged, c)
			}
		}
	}
	inProgress := merging || x.sequencerActive()
	if merging {
		if len(unmerged) > 0 {
			x.printf("You have unmerged paths.\n  (fix conflicts and run \"git commit\")\n  (use \"git merge --abort\" to abort the merge)\n\n")
		} else {
			x.printf("All conflicts fixed but you are still merging.\n  (use \"git commit\" to conclude merge)\n\n")
		}
	} else if x.sequencerActive() {
		op := x.sequencerOp()
		h, _ := x.r.wt.readRaw(".git/" + op.head)
		short := strings.TrimSpace(string(h))
		if len(short) > 7 {
			short = short[:7]
		}
		if len(unmerged) > 0 {
			x.printf("You are currently %s commit %s.\n  (fix conflicts and run \"git %s --continue\")\n", op.verb, short, op.name)
		} else {
			x.printf("You are currently %s commit %s.\n  (all conflicts fixed: run \"git %s --continue\")\n", op.verb, short, op.name)
		}
		x.printf("  (use \"git %s --skip\" to skip this patch)\n  (use \"git %s --abort\" to cancel the %s operation)\n\n", op.name, op.name, op.name)
	}
	if st.head.IsZero() {
		x.printf("\nNo commits yet\n\n")
	}
	unstageHint := func() {
		switch {
		case inProgress:
		case st.head.IsZero():
			x.printf("  (use \"git rm --cached <file>...\" to unstage)\n")
		default:
			x.printf("  (use \"git restore --staged <file>...\" to unstage)\n")
		}
	}
	if len(staged) > 0 {
		x.printf("Changes to be committed:\n")
		unstageHint()
		for _, c := range staged {
			if c.orig != "" {
				x.printf("\t%s%s -> %s\n", statusLabel(c.x), x.display(c.orig), x.display(c.path))
			} else {
				x.printf("\t%s%s\n", statusLabel(c.x), x.display(c.path))
			}
		}
		x.printf("\n")
	}
	if len(unmerged) > 0 {
		x.printf("Unmerged paths:\n")
		unstageHint()
		del := false
		for _, c := range unmerged {
			if strings.ContainsAny(c.unmerged, "D") || c.unmerged == "AU" || c.unmerged == "UA" {
				del = true
			}
		}
		if del {
			x.printf("  (use \"git add/rm <file>...\" as appropriate to mark resolution)\n")
		} else {
			x.printf("  (use \"git add <file>...\" to mark resolution)\n")
		}
		for _, c := range unmerged {
			x.printf("\t%s%s\n", unmergedLabel(c.unmerged), x.display(c.path))
		}
		x.printf("\n")
	}
	if len(unstaged) > 0 {
		x.printf("Changes not staged for commit:\n")
		del := false
		for _, c := range unstaged {
			del = del || c.y == 'D'
		}
		if del {
			x.printf("  (use \"git add/rm <file>...\" to update what will be committed)\n")
		} else {
			x.printf("  (use \"git add <file>...\" to update what will be committed)\n")
		}
		x.printf("  (use \"git restore <file>...\" to discard changes in working directory)\n")
		for _, c := range unstaged {
			x.printf("\t%s%s\n", statusLabel(c.y), x.display(c.path))
		}
		x.printf("\n")
	}
	if len(st.untracked) > 0 {
		x.printf("Untracked files:\n  (use \"git add <file>...\" to include in what will be committed)\n")
		for _, u := range st.untracked {
			d := x.display(strings.TrimSuffix(u, "/"))
			if strings.HasSuffix(u, "/") {
				d += "/"
			}
			x.printf("\t%s\n", d)
		}
		x.printf("\n")
	} else if um == "no" && len(staged) > 0 {
		x.printf("Untracked files not listed (use -u option to show untracked files)\n")
	}
	switch {
	case len(staged) > 0:
	case len(unstaged) > 0 || len(unmerged) > 0:
		x.printf("no changes added to commit (use \"git add\" and/or \"git commit -a\")\n")
	case len(st.untracked) > 0:
		x.printf("nothing added to commit but untracked files present (use \"git add\" to track)\n")
	case st.head.IsZero():
		x.printf("nothing to commit (create/copy files and use \"git add\" to track)\n")
	case um == "no":
		x.printf("nothing to commit (use -u to show untracked files)\n")
	default:
		x.printf("nothing to commit, working tree clean\n")
	}
}

// detachedAt names what a detached HEAD was checked out as (git reads
// the last "checkout: moving from A to B" of HEAD's reflog: B when it is
// a ref, else the commit abbreviated) and whether HEAD is still there.
func (x *cli) detachedAt(h plumbing.Hash) (string, bool) {
	data, ok := x.r.wt.readRaw(".git/logs/HEAD")
	if !ok {
		return shortHash(h), true
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		fields := strings.Fields(lines[i])
		_, msg, _ := strings.Cut(lines[i], "\t")
		rest, ok := strings.CutPrefix(msg, "checkout: moving from ")
		if !ok || len(fields) < 2 {
			continue
		}
		_, to, _ := strings.Cut(rest, " to ")
		noid := plumbing.NewHash(fields[1])
		name := shortHash(noid)
		for _, pfx := range []string{"refs/heads/", "refs/tags/", "refs/remotes/"} {
			if _, err := x.r.Storer.Reference(plumbing.ReferenceName(pfx + to)); err == nil {
				name = to
				break
			}
		}
		return name, noid == h
	}
	return shortHash(h), true
}
