package git

import (
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// git bisect: the state lives where git keeps it (BISECT_START,
// BISECT_LOG, BISECT_TERMS, BISECT_NAMES, BISECT_EXPECTED_REV and the
// refs/bisect/* refs), so /usr/bin/git can continue or reset a bisection
// nook started. The next commit to test is chosen as git chooses it: the
// first commit found half way, else the one that best splits the
// candidates, and with skipped commits git's sorted list and its
// pseudo-random step away from them.

const bisectUsage = "usage: git bisect [help|start|bad|good|new|old|terms|skip|next|reset|visualize|view|replay|log|run]"

var bisectFiles = []string{"BISECT_START", "BISECT_LOG", "BISECT_TERMS", "BISECT_NAMES", "BISECT_EXPECTED_REV", "BISECT_ANCESTORS_OK", "BISECT_RUN"}

func cmdBisect(x *cli, args []string) int {
	if len(args) == 0 {
		x.eprintf("%s\n", bisectUsage)
		return 1
	}
	sub, rest := args[0], args[1:]
	if sub != "start" && sub != "help" && sub != "reset" && sub != "log" && !x.bisecting() {
		switch sub {
		case "run":
			return 1
		case "bad", "good", "new", "old", "skip", "next", "visualize", "view", "replay":
			x.eprintf("You need to start by \"git bisect start\"\n\n")
			return 1
		}
	}
	switch sub {
	case "start":
		return x.bisectStart(rest)
	case "bad", "new":
		if len(rest) > 1 {
			x.eprintf("error: 'git bisect bad' can take only one argument.\n")
			return 1
		}
		return x.bisectMark("bad", rest)
	case "good", "old":
		return x.bisectMark("good", rest)
	case "skip":
		return x.bisectMark("skip", rest)
	case "next":
		return x.bisectNext()
	case "reset":
		return x.bisectReset(rest)
	case "log":
		if !x.bisecting() {
			x.eprintf("error: We are not bisecting.\n")
			return 1
		}
		data, _ := x.r.wt.readRaw(".git/BISECT_LOG")
		x.out.Write(data)
		return 0
	case "visualize", "view":
		la := append([]string{}, rest...)
		if len(la) == 0 {
			la = []string{"--oneline"}
		}
		bad, goods, _ := x.bisectRefs()
		if !bad.IsZero() {
			la = append(la, bad.String())
		}
		for _, g := range goods {
			la = append(la, "^"+g.String())
		}
		return x.logLike(la, false)
	case "terms":
		x.printf("Your current terms are good for the old state\nand bad for the new state.\n")
		return 0
	case "run":
		return x.bisectRun(rest)
	case "help", "-h":
		x.printf("%s\n", bisectUsage)
		return 0
	}
	x.eprintf("error: unknown command: '%s'\n%s\n", sub, bisectUsage)
	return 1
}

// bisectRunRefusal is what git bisect run says to a caller that cannot run
// its command: the JavaScript module's run function, for one.
const bisectRunRefusal = "git bisect run needs nook's shell to run its command: run it in a shell script " +
	"(the exec tool, nook exec, or nook git, which starts one), or mark commits with git bisect good/bad"

// bisectRun serves git bisect run. git runs the command at each step
// itself; nook's git cannot start a program, so a caller that can (the
// shell, which passes exec: true) is asked to: the result's Exec names
// the command, and the caller runs it with sh -c and calls again with the
// same command line and resume {state, exitCode}. Each step is a call of
// its own, journaled, so a replay walks the same steps. What each step
// prints, and the exit status at the end, are git's.
func (x *cli) bisectRun(argv []string) int {
	if !x.bisecting() {
		return 1
	}
	if bad, goods, _ := x.bisectRefs(); bad.IsZero() || len(goods) == 0 {
		return 1 // git says nothing either
	}
	if len(argv) == 0 {
		x.eprintf("error: bisect run failed: no command provided.\n")
		return 1
	}
	if exec, _ := x.c.a["exec"].(bool); !exec {
		return x.fatal("%s", bisectRunRefusal)
	}
	// git quotes each word, ' and ! outside the quotes, and keeps the
	// leading space ("running  'make'").
	command := ""
	for _, a := range argv {
		command += " '" + strings.NewReplacer("'", `'\''`, "!", `'\!'`).Replace(a) + "'"
	}
	resume, _ := x.c.a["resume"].(map[string]any)
	if resume == nil {
		return x.bisectExec(command, "first")
	}
	state, _ := resume["state"].(string)
	n, ok := resume["exitCode"].(float64)
	if !ok {
		return x.fatal("git bisect run: resume.exitCode must be a number")
	}
	res := int(n)
	switch kind, rest, _ := strings.Cut(state, " "); kind {
	case "first":
		// 126 and 127 may be the shell's (no such command): git checks
		// the command on a good commit before it trusts them.
		if res == 126 || res == 127 {
			_, goods, _ := x.bisectRefs()
			_, cur := x.head()
			if code := x.bisectCheckout(goods[0]); code != 0 {
				return code
			}
			return x.bisectExec(command, fmt.Sprintf("verify %d %s", res, cur))
		}
	case "next":
	case "verify":
		var first int
		var back string
		if _, err := fmt.Sscanf(rest, "%d %s", &first, &back); err != nil {
			return x.fatal("git bisect run: bad resume state %q", state)
		}
		if code := x.bisectCheckout(plumbing.NewHash(back)); code != 0 {
			return code
		}
		if res < 0 || res >= 128 {
			x.eprintf("error: unable to verify '%s' on good revision\n", command)
			return 1
		}
		if res == first {
			x.eprintf("error: bogus exit code %d for good revision\n", res)
			return 1
		}
		res = first
	default:
		return x.fatal("git bisect run: bad resume state %q", state)
	}
	if res < 0 || res >= 128 {
		x.eprintf("error: bisect run failed: exit code %d from '%s' is < 0 or >= 128\n", res, command)
		return -res & 0xff
	}
	mark := "bad"
	switch res {
	case 0:
		mark = "good"
	case 125:
		mark = "skip"
	}
	// git prints what the mark printed from BISECT_RUN, where it kept it.
	before := x.out.Len()
	x.bisectFound = false
	code := x.bisectMark(mark, nil)
	step := x.out.String()[before:]
	x.r.wt.writeRaw(".git/BISECT_RUN", []byte(step))
	switch {
	case x.bisectFound:
		x.printf("bisect found first bad commit")
		return 0
	case code == 2:
		x.eprintf("error: bisect run cannot continue any more\n")
		return 2
	case code != 0:
		x.eprintf("error: bisect run failed: 'git bisect %s' exited with error code %d\n", mark, code)
		return code
	}
	return x.bisectExec(command, "next")
}

// bisectExec asks the caller to run command and call again with state.
func (x *cli) bisectExec(command, state string) int {
	x.printf("running %s\n", command)
	x.exec = &ExecRequest{Command: command, Dir: x.cwd, State: state}
	return 0
}

// bisectCheckout checks out h as git bisect does, and names it.
func (x *cli) bisectCheckout(h plumbing.Hash) int {
	x.r.wt.writeRaw(".git/BISECT_EXPECTED_REV", []byte(h.String()+"\n"))
	if code := cmdCheckout(x, []string{"-q", h.String()}); code != 0 {
		return code
	}
	x.printf("[%s] %s\n", h, x.subjectOf(h))
	return 0
}

func (x *cli) bisecting() bool {
	_, ok := x.r.wt.readRaw(".git/BISECT_START")
	return ok
}

func (x *cli) bisectLog(s string) {
	old, _ := x.r.wt.readRaw(".git/BISECT_LOG")
	x.r.wt.writeRaw(".git/BISECT_LOG", append(old, s...))
}

// bisectRefs returns the bad commit, the good ones and the skipped ones.
func (x *cli) bisectRefs() (bad plumbing.Hash, goods, skips []plumbing.Hash) {
	for _, r := range x.refs("refs/bisect/") {
		n := r.Name().String()
		switch {
		case n == "refs/bisect/bad":
			bad = r.Hash()
		case strings.HasPrefix(n, "refs/bisect/good-"):
			goods = append(goods, r.Hash())
		case strings.HasPrefix(n, "refs/bisect/skip-"):
			skips = append(skips, r.Hash())
		}
	}
	return
}

func (x *cli) bisectStart(args []string) int {
	var revs []string
	for i, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") {
			return x.fatal("option '%s' of git bisect start is not supported by nook's git", a)
		}
		revs = append(revs, args[i])
	}
	var hashes []plumbing.Hash
	for _, r := range revs {
		h, err := x.rev(r)
		if err != nil {
			x.eprintf("fatal: '%s' does not appear to be a valid revision\n", r)
			return 1
		}
		hashes = append(hashes, h)
	}
	if x.bisecting() {
		x.bisectClean()
	}
	branch, head := x.head()
	if head.IsZero() {
		return x.fatal("bad HEAD - I need a HEAD")
	}
	start := branch
	if start == "" {
		start = head.String()
	}
	x.r.wt.writeRaw(".git/BISECT_START", []byte(start+"\n"))
	x.r.wt.writeRaw(".git/BISECT_TERMS", []byte("bad\ngood\n"))
	x.r.wt.writeRaw(".git/BISECT_NAMES", []byte("\n"))
	x.r.wt.writeRaw(".git/BISECT_LOG", nil)
	line := "git bisect start"
	for i, h := range hashes {
		kind := "good"
		if i == 0 {
			kind = "bad"
		}
		x.bisectSetRef(kind, h)
		x.bisectLog(fmt.Sprintf("# %s: [%s] %s\n", kind, h, x.subjectOf(h)))
	}
	for _, r := range revs {
		line += " '" + strings.ReplaceAll(r, "'", `'\''`) + "'"
	}
	x.bisectLog(line + "\n")
	return x.bisectNext()
}

func (x *cli) subjectOf(h plumbing.Hash) string {
	c, err := x.r.CommitObject(h)
	if err != nil {
		return ""
	}
	return oneLineSubject(c.Message)
}

func (x *cli) bisectSetRef(kind string, h plumbing.Hash) {
	name := "refs/bisect/bad"
	if kind != "bad" {
		name = "refs/bisect/" + kind + "-" + h.String()
	}
	x.r.Storer.SetReference(plumbing.NewHashReference(plumbing.ReferenceName(name), h))
}

func (x *cli) bisectMark(kind string, revs []string) int {
	if len(revs) == 0 {
		revs = []string{"HEAD"}
	}
	var hashes []plumbing.Hash
	for _, r := range revs {
		h, err := x.rev(r)
		if err != nil {
			x.eprintf("fatal: Bad rev input: %s\n", r)
			return 128
		}
		hashes = append(hashes, h)
	}
	for _, h := range hashes {
		x.bisectSetRef(kind, h)
		x.bisectLog(fmt.Sprintf("# %s: [%s] %s\ngit bisect %s %s\n", kind, h, x.subjectOf(h), kind, h))
	}
	return x.bisectNext()
}

func (x *cli) bisectNext() int {
	bad, goods, skips := x.bisectRefs()
	switch {
	case bad.IsZero() && len(goods) == 0:
		return x.bisectStatus("status: waiting for both good and bad commits")
	case bad.IsZero():
		s := "s"
		if len(goods) == 1 {
			s = ""
		}
		return x.bisectStatus(fmt.Sprintf("status: waiting for bad commit, %d good commit%s known", len(goods), s))
	case len(goods) == 0:
		return x.bisectStatus("status: waiting for good commit(s), bad commit known")
	}
	var list []*object.Commit
	if err := x.walk(walkOpts{include: []plumbing.Hash{bad}, exclude: goods}, func(c *object.Commit) bool {
		list = append(list, c)
		return true
	}); err != nil {
		return x.fail(err)
	}
	if len(list) == 0 {
		x.printf("%s was both good and bad\n", bad)
		return 1
	}
	skipped := map[plumbing.Hash]bool{}
	for _, s := range skips {
		skipped[s] = true
	}
	// git works on the walk's order reversed: oldest first.
	for i, j := 0, len(list)-1; i < j; i, j = i+1, j-1 {
		list[i], list[j] = list[j], list[i]
	}
	best, reaches, tried := bisectChoose(list, skipped, bad)
	all := len(list)
	if best == nil || best.Hash == bad {
		if len(tried) > 0 {
			x.printf("There are only 'skip'ped commits left to test.\nThe first bad commit could be any of:\n")
			for _, t := range tried {
				x.printf("%s\n", t)
			}
			if best != nil {
				x.printf("%s\n", bad)
			}
			x.printf("We cannot bisect more!\n")
			x.bisectLog("# only skipped commits left to test\n")
			possible := tried
			if best != nil {
				possible = append([]plumbing.Hash{bad}, tried...)
			}
			for _, h := range possible {
				x.bisectLog(fmt.Sprintf("# possible first bad commit: [%s] %s\n", h, x.subjectOf(h)))
			}
			return 2
		}
		c := best
		x.printf("%s is the first bad commit\n", c.Hash)
		lf := &logFmt{kind: "medium"}
		d := &diffFormat{ctx: 3, renames: true, srcPfx: "a/", dstPfx: "b/", stat: true, summary: true}
		text := x.commitHead(c, lf, nil, false)
		// git shows a merge's change from its first parent.
		fp := *c
		if len(fp.ParentHashes) > 1 {
			fp.ParentHashes = fp.ParentHashes[:1]
		}
		if diff := x.commitDiffText(&fp, d, nil); diff != "" {
			text += "\n" + diff
		}
		x.out.WriteString(text)
		x.bisectFound = true
		x.bisectLog(fmt.Sprintf("# first bad commit: [%s] %s\n", c.Hash, oneLineSubject(c.Message)))
		return 0
	}
	nr := all - reaches - 1
	steps := bisectSteps(all)
	plural := func(n int, w string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s", n, w)
		}
		return fmt.Sprintf("%d %ss", n, w)
	}
	x.r.wt.writeRaw(".git/BISECT_EXPECTED_REV", []byte(best.Hash.String()+"\n"))
	x.printf("Bisecting: %s left to test after this (roughly %s)\n", plural(nr, "revision"), plural(steps, "step"))
	if code := cmdCheckout(x, []string{"-q", best.Hash.String()}); code != 0 {
		return code
	}
	x.printf("[%s] %s\n", best.Hash, oneLineSubject(best.Message))
	return 0
}

func (x *cli) bisectStatus(s string) int {
	x.printf("%s\n", s)
	x.bisectLog("# " + s + "\n")
	return 0
}

// bisectSteps is git's estimate of the steps left for n candidates.
func bisectSteps(all int) int {
	if all < 3 {
		return 0
	}
	n := 0
	for 1<<(n+1) <= all {
		n++
	}
	e := 1 << n
	if e < 3*(all-e) {
		return n
	}
	return n - 1
}

// bisectChoose picks the commit to test among list (oldest first), its
// weight (the candidates it reaches), and the skipped commits passed over.
func bisectChoose(list []*object.Commit, skipped map[plumbing.Hash]bool, bad plumbing.Hash) (*object.Commit, int, []plumbing.Hash) {
	nr := len(list)
	in := make(map[plumbing.Hash]*object.Commit, nr)
	for _, c := range list {
		in[c.Hash] = c
	}
	findAll := len(skipped) > 0
	w := make(map[plumbing.Hash]int, nr)
	halfway := func(c *object.Commit) bool {
		d := 2*w[c.Hash] - nr
		if d >= -1 && d <= 1 {
			return true
		}
		if d < 0 {
			d = -d
		}
		return d < nr/1024
	}
	counted := 0
	for _, c := range list {
		k := 0
		for _, p := range c.ParentHashes {
			if in[p] != nil {
				k++
			}
		}
		switch k {
		case 0:
			w[c.Hash] = 1
			counted++
		case 1:
			w[c.Hash] = -1
		default:
			w[c.Hash] = -2
		}
	}
	var found *object.Commit
	for _, c := range list {
		if w[c.Hash] != -2 {
			continue
		}
		seen := map[plumbing.Hash]bool{}
		stack := []plumbing.Hash{c.Hash}
		for len(stack) > 0 {
			h := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[h] || in[h] == nil {
				continue
			}
			seen[h] = true
			stack = append(stack, in[h].ParentHashes...)
		}
		w[c.Hash] = len(seen)
		if !findAll && halfway(c) {
			found = c
			break
		}
		counted++
	}
	for found == nil && counted < nr {
		progress := false
		for _, c := range list {
			if w[c.Hash] >= 0 {
				continue
			}
			q := plumbing.ZeroHash
			for _, p := range c.ParentHashes {
				if in[p] == nil {
					continue
				}
				if w[p] >= 0 {
					q = p
				}
				break
			}
			if q.IsZero() {
				continue
			}
			w[c.Hash] = w[q] + 1
			counted++
			progress = true
			if !findAll && halfway(c) {
				found = c
				break
			}
		}
		if !progress {
			break
		}
	}
	dist := func(c *object.Commit) int {
		d := w[c.Hash]
		if nr-d < d {
			d = nr - d
		}
		return d
	}
	if found != nil {
		return found, w[found.Hash], nil
	}
	if !findAll {
		best, bestD := list[0], -1
		for _, c := range list {
			if d := dist(c); d > bestD {
				best, bestD = c, d
			}
		}
		return best, w[best.Hash], nil
	}
	sorted := append([]*object.Commit(nil), list...)
	sort.SliceStable(sorted, func(i, j int) bool {
		di, dj := dist(sorted[i]), dist(sorted[j])
		if di != dj {
			return di > dj
		}
		return sorted[i].Hash.String() < sorted[j].Hash.String()
	})
	reaches := w[sorted[0].Hash]
	var tried []plumbing.Hash
	var kept []*object.Commit
	skippedFirst := false
	for i, c := range sorted {
		if skipped[c.Hash] {
			if i == 0 || skippedFirst && len(kept) == 0 {
				skippedFirst = true
			}
			tried = append(tried, c.Hash)
			continue
		}
		if !skippedFirst {
			return c, reaches, tried
		}
		kept = append(kept, c)
	}
	if len(kept) == 0 {
		return nil, reaches, tried
	}
	// git's step away from skipped commits: a fixed pseudo-random pick.
	count := uint32(len(kept))
	prn := (count*1103515245 + 12345) / 65536 % 32768
	index := int(uint32(count*prn/32768) * isqrt(prn) / isqrt(32768))
	if index < len(kept) {
		if kept[index].Hash != bad {
			return kept[index], reaches, tried
		}
		if index > 0 {
			return kept[index-1], reaches, tried
		}
		return kept[0], reaches, tried
	}
	return nil, reaches, tried
}

func isqrt(n uint32) uint32 {
	r := uint32(0)
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}

func (x *cli) bisectClean() {
	for _, f := range bisectFiles {
		x.r.wt.removeRaw(".git/" + f)
	}
	for _, r := range x.refs("refs/bisect/") {
		x.r.Storer.RemoveReference(r.Name())
	}
}

func (x *cli) bisectReset(args []string) int {
	data, ok := x.r.wt.readRaw(".git/BISECT_START")
	if !ok {
		x.printf("We are not bisecting.\n")
		return 0
	}
	target := strings.TrimSpace(string(data))
	if len(args) > 0 {
		target = args[0]
	}
	if _, head := x.head(); target != "" {
		branch, _ := x.head()
		// git checks the branch out even when it is on it ("Already on").
		if branch == target || head.String() != target {
			if code := cmdCheckout(x, []string{target}); code != 0 {
				x.eprintf("error: could not check out original HEAD '%s'. Try 'git bisect reset <commit>'.\n", target)
				return 1
			}
		}
	}
	x.bisectClean()
	return 0
}
