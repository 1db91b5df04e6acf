package git

import (
	"bytes"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// pair is one file of a diff.
type pair struct {
	apath, bpath string
	a, b         tfile
	status       byte // 'A', 'D', 'M', 'R', 'T'
	score        int  // a rename's similarity, out of maxScore
	// worktree content when the b side is the worktree (hash may be zero)
	bdata  []byte
	bwork  bool
	adata  []byte // the a side's content when it is the worktree (diff -R)
	awork  bool
	loaded bool
	ad, bd []byte
}

// side content of a diff: either from objects or from the worktree.
type diffSide struct {
	files flat
	work  bool // files are worktree files (content read on demand)
}

// diffPairs compares two flat trees (b may be the worktree, whose hashes
// were computed), with exact rename detection when renames is set.
func (x *cli) diffPairs(a, b flat, ps *pathspec, renames bool) []*pair {
	var out []*pair
	var added, deleted []*pair
	for n, fa := range a {
		if !ps.match(n) {
			continue
		}
		fb, ok := b[n]
		switch {
		case !ok:
			deleted = append(deleted, &pair{apath: n, bpath: n, a: fa, status: 'D'})
		case fa != fb:
			st := byte('M')
			if (fa.mode == filemode.Symlink) != (fb.mode == filemode.Symlink) {
				st = 'T'
			}
			out = append(out, &pair{apath: n, bpath: n, a: fa, b: fb, status: st})
		}
	}
	for n, fb := range b {
		if _, ok := a[n]; !ok && ps.match(n) {
			added = append(added, &pair{apath: n, bpath: n, b: fb, status: 'A'})
		}
	}
	sort.Slice(added, func(i, j int) bool { return added[i].bpath < added[j].bpath })
	sort.Slice(deleted, func(i, j int) bool { return deleted[i].apath < deleted[j].apath })
	if renames {
		used := map[*pair]bool{}
		for _, ad := range added {
			for _, d := range deleted {
				if !used[d] && d.a == ad.b && !ad.b.hash.IsZero() {
					used[d], used[ad] = true, true
					out = append(out, &pair{apath: d.apath, bpath: ad.bpath, a: d.a, b: ad.b, status: 'R', score: maxScore})
					break
				}
			}
		}
		// Then by content.
		var srcs, dsts []*pair
		var sdata, ddata [][]byte
		for _, d := range deleted {
			if !used[d] && d.a.mode != filemode.Symlink {
				if b, err := x.r.readBlob(d.a.hash); err == nil {
					srcs, sdata = append(srcs, d), append(sdata, b)
				}
			}
		}
		for _, a := range added {
			if !used[a] && a.b.mode != filemode.Symlink && len(srcs) > 0 {
				var b []byte
				var err error
				if x.workB {
					b, err = x.readWork(a.bpath, x.scanned[a.bpath])
				} else {
					b, err = x.r.readBlob(a.b.hash)
				}
				if err == nil {
					dsts, ddata = append(dsts, a), append(ddata, b)
				}
			}
		}
		for _, c := range pairRenames(sdata, ddata) {
			d, ad := srcs[c.src], dsts[c.dst]
			used[d], used[ad] = true, true
			out = append(out, &pair{apath: d.apath, bpath: ad.bpath, a: d.a, b: ad.b, status: 'R', score: c.score})
		}
		for _, p := range append(added, deleted...) {
			if !used[p] {
				out = append(out, p)
			}
		}
	} else {
		out = append(out, added...)
		out = append(out, deleted...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].bpath < out[j].bpath })
	return out
}

// load reads both sides' content.
func (x *cli) load(p *pair) error {
	if p.loaded {
		return nil
	}
	p.loaded = true
	var err error
	if p.status != 'A' {
		if p.awork {
			p.ad = p.adata
		} else if p.ad, err = x.r.readBlob(p.a.hash); err != nil {
			return err
		}
	}
	if p.status != 'D' {
		if p.bwork {
			p.bd = p.bdata
		} else if p.bd, err = x.r.readBlob(p.b.hash); err != nil {
			return err
		}
	}
	return nil
}

func isBinary(b []byte) bool {
	if len(b) > 8000 {
		b = b[:8000]
	}
	return bytes.IndexByte(b, 0) >= 0
}

// fstat is a file's line counts.
type fstat struct {
	p              *pair
	added, removed int
	binary         bool
}

func (x *cli) numstat(pairs []*pair) []fstat {
	var out []fstat
	for _, p := range pairs {
		s := fstat{p: p}
		if x.load(p) == nil {
			if isBinary(p.ad) || isBinary(p.bd) {
				s.binary = true
			} else if p.a.hash != p.b.hash || p.bwork {
				s.added, s.removed = countChanges(p.ad, p.bd)
			}
		}
		out = append(out, s)
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// shortstatLine is " N files changed, X insertions(+), Y deletions(-)".
func shortstatLine(stats []fstat) string {
	if len(stats) == 0 {
		return ""
	}
	ins, del := 0, 0
	for _, s := range stats {
		ins += s.added
		del += s.removed
	}
	out := " " + plural(len(stats), "file changed", "files changed")
	if ins > 0 || del == 0 {
		out += ", " + plural(ins, "insertion(+)", "insertions(+)")
	}
	if del > 0 || ins == 0 {
		out += ", " + plural(del, "deletion(-)", "deletions(-)")
	}
	return out + "\n"
}

// renameText is how git shows a rename: common leading and trailing
// directories factored out ("dir/{a => b}/f").
func renameText(a, b string) string {
	pfx := 0
	for i := 0; i < len(a) && i < len(b) && a[i] == b[i]; i++ {
		if a[i] == '/' {
			pfx = i + 1
		}
	}
	sfx := 0
	for i := 1; i <= len(a)-pfx && i <= len(b)-pfx && a[len(a)-i] == b[len(b)-i]; i++ {
		if a[len(a)-i] == '/' {
			sfx = i
		}
	}
	if pfx == 0 && sfx == 0 {
		return a + " => " + b
	}
	mid := func(s string) string { return s[pfx : len(s)-sfx] }
	return a[:pfx] + "{" + mid(a) + " => " + mid(b) + "}" + a[len(a)-sfx:]
}

func decWidth(n int) int { return len(fmt.Sprint(n)) }

// statText renders git's --stat for 80 columns.
func statText(stats []fstat, width int) string {
	if len(stats) == 0 {
		return ""
	}
	names := make([]string, len(stats))
	maxLen, maxChange, numberWidth, binWidth := 0, 0, 0, 0
	for i, s := range stats {
		names[i] = s.p.bpath
		if s.p.status == 'R' {
			names[i] = renameText(s.p.apath, s.p.bpath)
		}
		if l := len(names[i]); l > maxLen {
			maxLen = l
		}
		if s.binary {
			w := 14 + decWidth(len(s.p.ad)) + decWidth(len(s.p.bd))
			if w > binWidth {
				binWidth = w
			}
			numberWidth = 3
			continue
		}
		if c := s.added + s.removed; c > maxChange {
			maxChange = c
		}
	}
	if w := decWidth(maxChange); w > numberWidth {
		numberWidth = w
	}
	if width < 16+6+numberWidth {
		width = 16 + 6 + numberWidth
	}
	graphWidth := maxChange
	if maxChange+4 <= binWidth {
		graphWidth = binWidth - 4
	}
	nameWidth := maxLen
	if nameWidth+numberWidth+6+graphWidth > width {
		if graphWidth > width*3/8-numberWidth-6 {
			graphWidth = width*3/8 - numberWidth - 6
			if graphWidth < 6 {
				graphWidth = 6
			}
		}
		if nameWidth > width-numberWidth-6-graphWidth {
			nameWidth = width - numberWidth - 6 - graphWidth
		} else {
			graphWidth = width - numberWidth - 6 - nameWidth
		}
	}
	scale := func(it int) int {
		if it == 0 {
			return 0
		}
		return 1 + it*(graphWidth-1)/maxChange
	}
	var b strings.Builder
	for i, s := range stats {
		name := names[i]
		if len(name) > nameWidth {
			keep := nameWidth - 3
			name = name[len(name)-keep:]
			if j := strings.IndexByte(name, '/'); j >= 0 {
				name = name[j:]
			}
			name = "..." + name
		}
		fmt.Fprintf(&b, " %-*s |", nameWidth, name)
		if s.binary {
			fmt.Fprintf(&b, " %*s", numberWidth, "Bin")
			if len(s.p.ad) != 0 || len(s.p.bd) != 0 || true {
				fmt.Fprintf(&b, " %d -> %d bytes", len(s.p.ad), len(s.p.bd))
			}
			b.WriteString("\n")
			continue
		}
		add, del := s.added, s.removed
		fmt.Fprintf(&b, " %*d", numberWidth, add+del)
		if graphWidth <= maxChange {
			total := scale(add + del)
			if total < 2 && add > 0 && del > 0 {
				total = 2
			}
			if add < del {
				add = scale(add)
				del = total - add
			} else {
				del = scale(del)
				add = total - del
			}
		}
		if add+del > 0 {
			b.WriteString(" " + strings.Repeat("+", add) + strings.Repeat("-", del))
		}
		b.WriteString("\n")
	}
	b.WriteString(shortstatLine(stats))
	return b.String()
}

// patchText renders one pair in git's patch format.
func (x *cli) patchText(p *pair, ctx int, srcPfx, dstPfx string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git %s%s %s%s\n", srcPfx, p.apath, dstPfx, p.bpath)
	ah, bh := p.a.hash, p.b.hash
	if p.bwork && bh.IsZero() {
		bh = plumbing.ComputeHash(plumbing.BlobObject, p.bdata)
	}
	from, to := srcPfx+p.apath, dstPfx+p.bpath
	switch p.status {
	case 'A':
		fmt.Fprintf(&b, "new file mode %s\nindex %s..%s\n", modeText(p.b.mode), abbrevZero, bh.String()[:7])
		from = "/dev/null"
	case 'D':
		fmt.Fprintf(&b, "deleted file mode %s\nindex %s..%s\n", modeText(p.a.mode), ah.String()[:7], abbrevZero)
		to = "/dev/null"
	case 'R':
		if p.a.mode != p.b.mode {
			fmt.Fprintf(&b, "old mode %s\nnew mode %s\n", modeText(p.a.mode), modeText(p.b.mode))
		}
		fmt.Fprintf(&b, "similarity index %d%%\nrename from %s\nrename to %s\n", p.score*100/maxScore, p.apath, p.bpath)
		if ah == bh {
			return b.String()
		}
		if p.a.mode == p.b.mode {
			fmt.Fprintf(&b, "index %s..%s %s\n", ah.String()[:7], bh.String()[:7], modeText(p.a.mode))
		} else {
			fmt.Fprintf(&b, "index %s..%s\n", ah.String()[:7], bh.String()[:7])
		}
	case 'T':
		// A type change is a deletion and an addition.
		d := &pair{apath: p.apath, bpath: p.apath, a: p.a, status: 'D'}
		a := &pair{apath: p.bpath, bpath: p.bpath, b: p.b, status: 'A', bwork: p.bwork, bdata: p.bdata}
		return x.patchText(d, ctx, srcPfx, dstPfx) + x.patchText(a, ctx, srcPfx, dstPfx)
	default:
		if p.a.mode != p.b.mode {
			fmt.Fprintf(&b, "old mode %s\nnew mode %s\n", modeText(p.a.mode), modeText(p.b.mode))
			if ah != bh {
				fmt.Fprintf(&b, "index %s..%s\n", ah.String()[:7], bh.String()[:7])
			}
		} else {
			fmt.Fprintf(&b, "index %s..%s %s\n", ah.String()[:7], bh.String()[:7], modeText(p.a.mode))
		}
	}
	if ah == bh && (p.status == 'M' || p.status == 'R') {
		return b.String()
	}
	if err := x.load(p); err != nil {
		return b.String()
	}
	if isBinary(p.ad) || isBinary(p.bd) {
		fmt.Fprintf(&b, "Binary files %s and %s differ\n", from, to)
		return b.String()
	}
	if len(p.ad) == 0 && len(p.bd) == 0 {
		return b.String()
	}
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", from, to)
	b.WriteString(unified(p.ad, p.bd, ctx))
	return b.String()
}

const abbrevZero = "0000000"

var diffOpts = []opt{
	{long: "cached"}, {long: "staged", key: "cached"}, {long: "stat", arg: argOptional}, {long: "shortstat"}, {long: "numstat"},
	{long: "name-only"}, {long: "name-status"}, {short: 'U', long: "unified", arg: argRequired}, {long: "no-color", key: "no-color"},
	{long: "color", arg: argOptional}, {short: 'p', long: "patch"}, {short: 'u', key: "patch"}, {long: "no-renames", key: "no-renames"},
	{short: 'M', long: "find-renames", arg: argOptional}, {long: "quiet"}, {long: "exit-code"}, {short: 'R', key: "R"},
	{long: "summary"}, {long: "no-patch", key: "no-patch"}, {short: 's', key: "no-patch"}, {long: "ignore-space-at-eol"},
	{short: 'w', long: "ignore-all-space"}, {long: "no-ext-diff", key: "no-ext-diff"}, {long: "raw"}, {long: "no-index", key: "no-index"},
	{long: "src-prefix", arg: argRequired}, {long: "dst-prefix", arg: argRequired}, {long: "no-prefix", key: "no-prefix"},
	{long: "merge-base"}, {long: "full-index"}, {long: "binary"}, {long: "word-diff", arg: argOptional}, {long: "check"},
	{long: "diff-filter", arg: argRequired}, {long: "cc"},
}

// diffFormat holds the output options shared by diff, log and show.
type diffFormat struct {
	patch, stat, shortstat, numstat, nameOnly, nameStatus, summary, noPatch bool
	// cc shows a merge's dense combined diff (show's default, log --cc).
	cc             bool
	ctx            int
	renames        bool
	srcPfx, dstPfx string
	// filter, from --diff-filter, keeps the pairs of the change classes
	// it selects (nil: every pair).
	filter func(status byte) bool
}

// parseDiffFilter reads --diff-filter as git does: upper-case letters
// select change classes, lower-case ones exclude them (alone, from all).
func parseDiffFilter(v string) (func(byte) bool, error) {
	var in, out [256]bool
	anyIn := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '*':
			anyIn = false // "all-or-none" has no effect on a single pair
		case strings.IndexByte("ACDMRTUXB", c) >= 0:
			in[c], anyIn = true, true
		case c >= 'a' && c <= 'z' && strings.IndexByte("ACDMRTUXB", c-'a'+'A') >= 0:
			out[c-'a'+'A'] = true
		default:
			return nil, &fatalErr{code: 129, text: fmt.Sprintf("error: unknown change class '%c' in --diff-filter=%s\n", c, v)}
		}
	}
	return func(st byte) bool { return !out[st] && (!anyIn || in[st]) }, nil
}

// keep returns the pairs d's --diff-filter selects.
func (d *diffFormat) keep(pairs []*pair) []*pair {
	if d.filter == nil {
		return pairs
	}
	var out []*pair
	for _, p := range pairs {
		if d.filter(p.status) {
			out = append(out, p)
		}
	}
	return out
}

func (x *cli) diffFormatOf(f *flags, patchDefault bool) (*diffFormat, error) {
	d := &diffFormat{ctx: 3, renames: true, srcPfx: "a/", dstPfx: "b/"}
	d.stat, d.shortstat, d.numstat = f.has("stat"), f.has("shortstat"), f.has("numstat")
	d.nameOnly, d.nameStatus, d.summary = f.has("name-only"), f.has("name-status"), f.has("summary")
	d.patch = f.has("patch") || f.has("unified") || f.has("cc")
	d.cc = f.has("cc") || patchDefault
	d.noPatch = f.has("no-patch")
	if !d.stat && !d.shortstat && !d.numstat && !d.nameOnly && !d.nameStatus && !d.summary && patchDefault {
		d.patch = true
	}
	if d.noPatch {
		d.patch = false
	}
	if f.has("unified") {
		n := atoiOr(f.str("unified"), -1)
		if n < 0 {
			return nil, &fatalErr{code: 129, text: "error: switch `U' expects a numerical value\n"}
		}
		d.ctx = n
	}
	if f.has("no-renames") {
		d.renames = false
	}
	if f.has("word-diff") || f.has("check") || f.has("raw") || f.has("ignore-all-space") || f.has("ignore-space-at-eol") || f.has("no-index") {
		return nil, fatalf("this diff option is not supported by nook's git (--word-diff, --check, --raw, -w, --no-index)")
	}
	if o := f.refuse("merge-base", "full-index", "binary"); o != "" {
		return nil, fatalf("option '%s' of git diff is not supported by nook's git", o)
	}
	if f.has("diff-filter") {
		var err error
		if d.filter, err = parseDiffFilter(f.str("diff-filter")); err != nil {
			return nil, err
		}
	}
	if f.has("no-prefix") {
		d.srcPfx, d.dstPfx = "", ""
	}
	if f.has("src-prefix") {
		d.srcPfx = f.str("src-prefix")
	}
	if f.has("dst-prefix") {
		d.dstPfx = f.str("dst-prefix")
	}
	return d, nil
}

// render prints pairs in the chosen formats.
func (x *cli) render(pairs []*pair, d *diffFormat) {
	pairs = d.keep(pairs)
	if d.numstat {
		for _, s := range x.numstat(pairs) {
			name := s.p.bpath
			if s.p.status == 'R' {
				name = renameText(s.p.apath, s.p.bpath)
			}
			if s.binary {
				x.printf("-\t-\t%s\n", x.display(name))
			} else {
				x.printf("%d\t%d\t%s\n", s.added, s.removed, x.display(name))
			}
		}
	}
	if d.stat {
		x.printf("%s", statText(x.numstat(pairs), 80))
	} else if d.shortstat {
		x.printf("%s", shortstatLine(x.numstat(pairs)))
	}
	if d.summary {
		x.printf("%s", summaryLines(pairs))
	}
	if d.nameOnly {
		for _, p := range pairs {
			x.printf("%s\n", x.display(p.bpath))
		}
	}
	if d.nameStatus {
		for _, p := range pairs {
			if p.status == 'R' {
				x.printf("R%03d\t%s\t%s\n", p.score*100/maxScore, x.display(p.apath), x.display(p.bpath))
				continue
			}
			x.printf("%c\t%s\n", p.status, x.display(p.bpath))
		}
	}
	if d.patch {
		if (d.stat || d.shortstat || d.numstat || d.summary) && len(pairs) > 0 {
			x.printf("\n")
		}
		for _, p := range pairs {
			x.printf("%s", x.patchText(p, d.ctx, d.srcPfx, d.dstPfx))
		}
	}
}

// workFlat returns the worktree's versions of the paths in tracked (git
// diffs only files it knows), hashing their content.
func (x *cli) workFlat(tracked flat, ps *pathspec) (flat, map[string][]byte, error) {
	ws, err := x.scan()
	if err != nil {
		return nil, nil, err
	}
	ix, err := x.r.readIndex()
	if err != nil {
		return nil, nil, err
	}
	out, data := flat{}, map[string][]byte{}
	for n := range tracked {
		if !ps.match(n) {
			continue
		}
		w, ok := ws[n]
		if !ok {
			continue
		}
		e := ix.get(n)
		h, err := x.workHash(n, w, e)
		if err != nil {
			return nil, nil, err
		}
		out[n] = tfile{h, w.mode}
	}
	return out, data, nil
}

func cmdDiff(x *cli, args []string) int {
	f, err := parseOpts(args, diffOpts, "usage: git diff [<options>] [<commit>] [--] [<path>...]\n", false, "")
	if err != nil {
		var ue *usageErr
		if errorsAs(err, &ue) {
			opt := strings.TrimPrefix(strings.TrimPrefix(ue.msg, "error: unknown option `"), "error: unknown switch `")
			_ = opt
			bad := ""
			for _, a := range args {
				if strings.HasPrefix(a, "-") && !knownDiffArg(a) {
					bad = a
					break
				}
			}
			x.eprintf("error: invalid option: %s\n", bad)
			return 129
		}
		return x.fail(err)
	}
	d, err := x.diffFormatOf(f, true)
	if err != nil {
		return x.fail(err)
	}
	// Revisions come first; the rest are paths.
	var revs, paths []string
	for i, p := range f.pos {
		if strings.Contains(p, "..") {
			revs = append(revs, p)
			continue
		}
		if _, err := x.rev(p); err == nil && len(paths) == 0 {
			revs = append(revs, p)
			continue
		}
		if !f.dashdash {
			if _, err := x.fs().Lstat(x.ctx(), path.Join(x.cwd, p)); err != nil {
				return x.fail(ambiguous(p))
			}
		} else {
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
	commitFlat := func(rev string) (flat, error) {
		h, err := x.rev(rev)
		if err != nil {
			return nil, err
		}
		return x.r.commitFlat(h)
	}
	var a, b flat
	work := false
	switch {
	case len(revs) == 1 && strings.Contains(revs[0], ".."):
		l, r, _ := strings.Cut(revs[0], "..")
		three := strings.HasPrefix(r, ".")
		r = strings.TrimPrefix(r, ".")
		if l == "" {
			l = "HEAD"
		}
		if r == "" {
			r = "HEAD"
		}
		if three {
			lh, err := x.rev(l)
			if err != nil {
				return x.fail(err)
			}
			rh, err := x.rev(r)
			if err != nil {
				return x.fail(err)
			}
			base, err := x.r.mergeBase(lh, rh)
			if err != nil {
				return x.fatal("%s...%s: no merge base", l, r)
			}
			l = base.String()
		}
		if a, err = commitFlat(l); err == nil {
			b, err = commitFlat(r)
		}
	case len(revs) == 2:
		if a, err = commitFlat(revs[0]); err == nil {
			b, err = commitFlat(revs[1])
		}
	case len(revs) > 2:
		return x.fatal("nook's git does not diff more than two commits (combined diff)")
	case f.has("cached"):
		rev := "HEAD"
		if len(revs) == 1 {
			rev = revs[0]
		}
		_, head := x.head()
		if rev == "HEAD" && head.IsZero() {
			a = flat{}
		} else if a, err = commitFlat(rev); err != nil {
			return x.fail(err)
		}
		ix, err2 := x.r.readIndex()
		if err2 != nil {
			return x.fail(err2)
		}
		b = ix.flat()
		if d.patch && !d.stat && !d.shortstat && !d.numstat && !d.nameOnly && !d.nameStatus && !d.summary {
			// A conflicted path has no staged content to compare.
			for _, n := range ix.conflicted() {
				if ps.match(n) {
					x.printf("* Unmerged path %s\n", n)
					delete(a, n)
				}
			}
		}
	case len(revs) == 1:
		if a, err = commitFlat(revs[0]); err == nil {
			ix, _ := x.r.readIndex()
			union := ix.flat()
			for n, v := range a {
				union[n] = v
			}
			b, _, err = x.workFlat(union, ps)
			work = true
		}
	default:
		ix, err2 := x.r.readIndex()
		if err2 != nil {
			return x.fail(err2)
		}
		a = ix.flat()
		b, _, err = x.workFlat(a, ps)
		work = true
		if d.nameOnly || d.nameStatus {
			// A conflicted path is listed as unmerged, then as its
			// worktree against our side.
			for _, n := range ix.conflicted() {
				if !ps.match(n) {
					continue
				}
				if d.nameOnly {
					x.printf("%s\n", x.display(n))
				} else {
					x.printf("U\t%s\n", x.display(n))
				}
				st := ix.stages(n)
				if st[2] != nil {
					a[n] = tfile{st[2].Hash, st[2].Mode}
					if w, ok := x.scanned[n]; ok {
						h, _ := x.workHash(n, w, nil)
						b[n] = tfile{h, w.mode}
					}
				}
			}
		} else {
			for _, n := range ix.conflicted() {
				if !ps.match(n) {
					continue
				}
				if d.patch && !d.stat && !d.shortstat && !d.numstat && !d.summary {
					if text, ok := x.conflictCombined(ix, n, d.ctx); ok {
						x.out.WriteString(text)
						continue
					}
				}
				x.printf("* Unmerged path %s\n", n)
			}
		}
		// Files deleted in the worktree are deletions.
	}
	if err != nil {
		return x.fail(err)
	}
	x.workB = work
	pairs := x.diffPairs(a, b, ps, d.renames)
	x.workB = false
	if work {
		for _, p := range pairs {
			if p.status != 'D' {
				p.bwork = true
				p.bdata, _ = x.readWork(p.bpath, x.scanned[p.bpath])
			}
		}
	}
	if f.has("R") {
		d.srcPfx, d.dstPfx = d.dstPfx, d.srcPfx
		for _, p := range pairs {
			p.apath, p.bpath, p.a, p.b = p.bpath, p.apath, p.b, p.a
			p.awork, p.bwork, p.adata, p.bdata = p.bwork, false, p.bdata, nil
			switch p.status {
			case 'A':
				p.status = 'D'
			case 'D':
				p.status = 'A'
			}
		}
		sort.Slice(pairs, func(i, j int) bool { return pairs[i].bpath < pairs[j].bpath })
	}
	pairs = d.keep(pairs)
	if f.has("quiet") {
		if len(pairs) > 0 {
			return 1
		}
		return 0
	}
	x.render(pairs, d)
	if f.has("exit-code") && len(pairs) > 0 {
		return 1
	}
	return 0
}

func knownDiffArg(a string) bool {
	name := strings.TrimLeft(a, "-")
	name, _, _ = strings.Cut(name, "=")
	if strings.HasPrefix(a, "--") {
		o, _, _ := findLong(diffOpts, name)
		return o != nil
	}
	for i := 0; i < len(name); i++ {
		if findShort(diffOpts, name[i]) == nil {
			return false
		}
	}
	return true
}
