package coreutils

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

func init() {
	register("diff", "diff [-u | -U N] [-q] [-s] [-r] [-N] [-i] [-b] [-w] [--label LABEL]... FILE1 FILE2", diffCmd)
}

// diffOpts are diff's options.
type diffOpts struct {
	unified  bool
	context  int
	brief    bool
	same     bool // -s
	recurse  bool
	newFile  bool // -N
	icase    bool
	spaces   bool // -b
	allSpace bool // -w
	labels   []string
	words    []string // the options as given, for "diff -r ..." lines
	out      io.Writer
}

func diffCmd(e *Env, args []string) int {
	o := &diffOpts{context: 3, out: e.Stdout}
	var ops []string
	a := args[1:]
	for i := 0; i < len(a); i++ {
		s := a[i]
		switch {
		case s == "--":
			ops = append(ops, a[i+1:]...)
			i = len(a)
			continue
		case s == "--label" && i+1 < len(a):
			o.labels = append(o.labels, a[i+1])
			o.words = append(o.words, s, a[i+1])
			i++
			continue
		case strings.HasPrefix(s, "--label="):
			o.labels = append(o.labels, s[len("--label="):])
		case s == "--unified":
			o.unified = true
		case strings.HasPrefix(s, "--unified="):
			n, err := strconv.Atoi(s[len("--unified="):])
			if err != nil || n < 0 {
				e.Errf("invalid context length '%s'", s[len("--unified="):])
				return 2
			}
			o.unified, o.context = true, n
		case s == "--brief":
			o.brief = true
		case s == "--report-identical-files":
			o.same = true
		case s == "--recursive":
			o.recurse = true
		case s == "--new-file":
			o.newFile = true
		case s == "--ignore-case":
			o.icase = true
		case s == "--ignore-space-change":
			o.spaces = true
		case s == "--ignore-all-space":
			o.allSpace = true
		case s == "--text" || s == "--color=never" || s == "--color" || s == "--strip-trailing-cr":
		case s == "-U" && i+1 < len(a):
			n, err := strconv.Atoi(a[i+1])
			if err != nil || n < 0 {
				e.Errf("invalid context length '%s'", a[i+1])
				return 2
			}
			o.unified, o.context = true, n
			o.words = append(o.words, s, a[i+1])
			i++
			continue
		case len(s) > 1 && s[0] == '-' && s[1] != '-':
			for j := 1; j < len(s); j++ {
				switch c := s[j]; c {
				case 'u':
					o.unified = true
				case 'U':
					n, err := strconv.Atoi(s[j+1:])
					if err != nil || n < 0 {
						e.Errf("invalid context length '%s'", s[j+1:])
						return 2
					}
					o.unified, o.context = true, n
					j = len(s)
				case 'q':
					o.brief = true
				case 's':
					o.same = true
				case 'r':
					o.recurse = true
				case 'N':
					o.newFile = true
				case 'i':
					o.icase = true
				case 'b':
					o.spaces = true
				case 'w':
					o.allSpace = true
				case 'a', 'd':
				default:
					if c >= '0' && c <= '9' {
						n, _ := strconv.Atoi(s[j:])
						o.unified, o.context = true, n
						j = len(s)
						continue
					}
					e.Errf("invalid option -- '%c'", c)
					fmt.Fprintf(e.Stderr, "Try '%s --help' for more information.\n", e.name)
					return 2
				}
			}
		case strings.HasPrefix(s, "--") && len(s) > 2:
			e.Errf("unrecognized option '%s'", s)
			fmt.Fprintf(e.Stderr, "Try '%s --help' for more information.\n", e.name)
			return 2
		default:
			ops = append(ops, s)
			continue
		}
		o.words = append(o.words, s)
	}
	if len(ops) != 2 {
		if len(ops) < 2 {
			e.Errf("missing operand after '%s'", strings.Join(args[len(args)-1:], ""))
		} else {
			e.Errf("extra operand '%s'", ops[2])
		}
		fmt.Fprintf(e.Stderr, "Try '%s --help' for more information.\n", e.name)
		return 2
	}
	return e.diffPaths(o, ops[0], ops[1], true)
}

// diffInfo is what diff needs to know of an operand.
type diffInfo struct {
	exists bool
	dir    bool
	mtime  time.Time
}

func (e *Env) diffStat(p string) (diffInfo, error) {
	if p == "-" {
		return diffInfo{exists: true, mtime: e.Now()}, nil
	}
	if p == "/dev/null" {
		return diffInfo{exists: true, mtime: time.Unix(0, 0)}, nil
	}
	fi, err := e.FS.Stat(e.Ctx, e.Abs(p))
	if err != nil {
		if codeOf(err) == "ENOENT" {
			return diffInfo{}, err
		}
		return diffInfo{}, err
	}
	return diffInfo{exists: true, dir: fi.IsDir(), mtime: fi.ModTime()}, nil
}

// diffPaths compares two operands (files or directories) and returns
// diff's status: 0 same, 1 different, 2 trouble.
func (e *Env) diffPaths(o *diffOpts, a, b string, top bool) int {
	ia, erra := e.diffStat(a)
	ib, errb := e.diffStat(b)
	if erra != nil && !(o.newFile && codeOf(erra) == "ENOENT" && errb == nil) {
		e.FileErr(a, erra)
		return 2
	}
	if errb != nil && !(o.newFile && codeOf(errb) == "ENOENT" && erra == nil) {
		e.FileErr(b, errb)
		return 2
	}
	if top {
		// a file compared with a directory: the file of the same name in it
		if ia.dir && ib.exists && !ib.dir && b != "-" {
			a = path.Join(a, path.Base(b))
			return e.diffPaths(o, a, b, false)
		}
		if ib.dir && ia.exists && !ia.dir && a != "-" {
			b = path.Join(b, path.Base(a))
			return e.diffPaths(o, a, b, false)
		}
	}
	if ia.dir && ib.dir {
		return e.diffDirs(o, a, b, top)
	}
	if ia.dir != ib.dir && ia.exists && ib.exists {
		kind := func(d bool) string {
			if d {
				return "directory"
			}
			return "regular file"
		}
		fmt.Fprintf(o.out, "File %s is a %s while file %s is a %s\n", a, kind(ia.dir), b, kind(ib.dir))
		return 1
	}
	return e.diffFiles(o, a, b, ia, ib, !top)
}

func (e *Env) diffDirs(o *diffOpts, a, b string, top bool) int {
	la, err := e.FS.ReadDir(e.Ctx, e.Abs(a))
	if err != nil {
		e.FileErr(a, err)
		return 2
	}
	lb, err := e.FS.ReadDir(e.Ctx, e.Abs(b))
	if err != nil {
		e.FileErr(b, err)
		return 2
	}
	kinds := map[string][2]string{}
	for _, x := range la {
		k := kinds[x.Name]
		k[0] = x.Kind
		kinds[x.Name] = k
	}
	for _, x := range lb {
		k := kinds[x.Name]
		k[1] = x.Kind
		kinds[x.Name] = k
	}
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	status := 0
	for _, n := range names {
		if e.Ctx.Err() != nil {
			return 2
		}
		k := kinds[n]
		pa, pb := path.Join(a, n), path.Join(b, n)
		var st int
		switch {
		case k[0] == "" && !o.newFile:
			fmt.Fprintf(o.out, "Only in %s: %s\n", b, n)
			st = 1
		case k[1] == "" && !o.newFile:
			fmt.Fprintf(o.out, "Only in %s: %s\n", a, n)
			st = 1
		case (k[0] == "dir" || k[0] == "") && (k[1] == "dir" || k[1] == "") && !(k[0] == "" && k[1] == ""):
			if !o.recurse {
				if k[0] == "dir" && k[1] == "dir" {
					fmt.Fprintf(o.out, "Common subdirectories: %s and %s\n", pa, pb)
				}
				continue
			}
			if k[0] == "" || k[1] == "" {
				st = e.diffNewDir(o, pa, pb, k[0] == "")
			} else {
				st = e.diffDirs(o, pa, pb, false)
			}
		default:
			st = e.diffPaths(o, pa, pb, false)
		}
		status = max(status, st)
	}
	return status
}

// diffNewDir (-N -r) compares every file of a directory present on one
// side with an empty file.
func (e *Env) diffNewDir(o *diffOpts, a, b string, missingA bool) int {
	dir := a
	if missingA {
		dir = b
	}
	l, err := e.FS.ReadDir(e.Ctx, e.Abs(dir))
	if err != nil {
		e.FileErr(dir, err)
		return 2
	}
	status := 0
	for _, x := range l {
		pa, pb := path.Join(a, x.Name), path.Join(b, x.Name)
		var st int
		if x.Kind == "dir" {
			st = e.diffNewDir(o, pa, pb, missingA)
		} else {
			st = e.diffPaths(o, pa, pb, false)
		}
		status = max(status, st)
	}
	return status
}

func (e *Env) diffRead(p string, info diffInfo) ([]byte, error) {
	if !info.exists {
		return nil, nil
	}
	return e.ReadAll(p)
}

func (e *Env) diffFiles(o *diffOpts, a, b string, ia, ib diffInfo, inDir bool) int {
	da, err := e.diffRead(a, ia)
	if err != nil {
		e.FileErr(a, err)
		return 2
	}
	db, err := e.diffRead(b, ib)
	if err != nil {
		e.FileErr(b, err)
		return 2
	}
	header := func() {
		if inDir {
			fmt.Fprintf(o.out, "diff %s%s %s\n", strings.Join(append(o.words, ""), " "), a, b)
		}
	}
	if bytes.Equal(da, db) {
		if o.same {
			fmt.Fprintf(o.out, "Files %s and %s are identical\n", a, b)
		}
		return 0
	}
	binary := bytes.IndexByte(da[:min(len(da), 8192)], 0) >= 0 || bytes.IndexByte(db[:min(len(db), 8192)], 0) >= 0
	if o.brief || binary {
		if binary && !o.brief {
			header()
			fmt.Fprintf(o.out, "Binary files %s and %s differ\n", a, b)
		} else {
			fmt.Fprintf(o.out, "Files %s and %s differ\n", a, b)
		}
		return 1
	}
	la, lb := splitKeep(da), splitKeep(db)
	blocks := diffLines(la, lb, o.key)
	if len(blocks) == 0 {
		if o.same {
			fmt.Fprintf(o.out, "Files %s and %s are identical\n", a, b)
		}
		return 0
	}
	var w strings.Builder
	if o.unified {
		labelA, labelB := a+"\t"+diffTime(ia.mtime), b+"\t"+diffTime(ib.mtime)
		if len(o.labels) > 0 {
			labelA = o.labels[0]
		}
		if len(o.labels) > 1 {
			labelB = o.labels[1]
		}
		header()
		w.WriteString("--- " + labelA + "\n+++ " + labelB + "\n")
		writeUnified(&w, la, lb, blocks, o.context)
	} else {
		header()
		writeNormal(&w, la, lb, blocks)
	}
	io.WriteString(o.out, w.String())
	return 1
}

func diffTime(t time.Time) string {
	return t.UTC().Format("2006-01-02 15:04:05.000000000 -0700")
}

// key is the form of a line that is compared (-i, -b, -w).
func (o *diffOpts) key(l string) string {
	if !o.icase && !o.spaces && !o.allSpace {
		return l
	}
	s := strings.TrimSuffix(l, "\n")
	nl := len(s) < len(l)
	if o.icase {
		s = strings.ToLower(s)
	}
	switch {
	case o.allSpace:
		s = strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\r' || r == '\f' || r == '\v' {
				return -1
			}
			return r
		}, s)
	case o.spaces:
		s = strings.Join(strings.Fields(s), " ")
		if len(l) > 0 && (l[0] == ' ' || l[0] == '\t') {
			s = " " + s
		}
	}
	if nl {
		s += "\n"
	}
	return s
}

// block is a change: a[a0:a1] replaced by b[b0:b1].
type block struct{ a0, a1, b0, b1 int }

// maxEditDistance bounds the Myers search (its memory is quadratic in
// the number of differences); past it the differing middle is reported
// as one change, which is still a correct diff.
const maxEditDistance = 2000

// diffLines compares the lines of a and b (by key) and returns the
// changes, in order.
func diffLines(a, b []string, key func(string) string) []block {
	ids := map[string]int32{}
	intern := func(l []string) []int32 {
		out := make([]int32, len(l))
		for i, s := range l {
			k := key(s)
			id, ok := ids[k]
			if !ok {
				id = int32(len(ids))
				ids[k] = id
			}
			out[i] = id
		}
		return out
	}
	x, y := intern(a), intern(b)
	// the common prefix and suffix never enter the search
	p := 0
	for p < len(x) && p < len(y) && x[p] == y[p] {
		p++
	}
	s := 0
	for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
		s++
	}
	xs, ys := x[p:len(x)-s], y[p:len(y)-s]
	del, ins := myers(xs, ys)
	var blocks []block
	i, j := 0, 0
	for i < len(xs) || j < len(ys) {
		if i < len(xs) && j < len(ys) && !del[i] && !ins[j] {
			i++
			j++
			continue
		}
		bl := block{a0: i + p, b0: j + p}
		for i < len(xs) && del[i] {
			i++
		}
		for j < len(ys) && ins[j] {
			j++
		}
		bl.a1, bl.b1 = i+p, j+p
		blocks = append(blocks, bl)
	}
	return blocks
}

// myers marks the lines of a deleted and of b inserted by a shortest
// edit script (Myers' greedy algorithm, deletions first).
func myers(a, b []int32) (del, ins []bool) {
	n, m := len(a), len(b)
	del, ins = make([]bool, n), make([]bool, m)
	all := func() ([]bool, []bool) {
		for i := range del {
			del[i] = true
		}
		for j := range ins {
			ins[j] = true
		}
		return del, ins
	}
	if n == 0 || m == 0 {
		return all()
	}
	maxD := min(n+m, maxEditDistance)
	off := maxD + 1
	v := make([]int32, 2*maxD+3)
	var trace [][]int32
	found := -1
	for d := 0; d <= maxD && found < 0; d++ {
		for k := -d; k <= d; k += 2 {
			var xx int32
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				xx = v[off+k+1]
			} else {
				xx = v[off+k-1] + 1
			}
			yy := xx - int32(k)
			for int(xx) < n && int(yy) < m && a[xx] == b[yy] {
				xx++
				yy++
			}
			v[off+k] = xx
			if int(xx) >= n && int(yy) >= m {
				found = d
				break
			}
		}
		snap := make([]int32, 2*d+1)
		copy(snap, v[off-d:off+d+1])
		trace = append(trace, snap)
	}
	if found < 0 {
		return all()
	}
	// walk back from (n, m); each step of d is one insertion or deletion
	// followed by a run of equal lines
	xx, yy := n, m
	for d := found; d > 0; d-- {
		prev := trace[d-1] // diagonals -(d-1)..d-1
		at := func(k int) int32 { return prev[k+d-1] }
		k := xx - yy
		var pk int
		if k == -d || k != d && at(k-1) < at(k+1) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := int(at(pk))
		py := px - pk
		if pk == k+1 {
			ins[py] = true
		} else {
			del[px] = true
		}
		xx, yy = px, py
	}
	return del, ins
}

func hunkRange(start, n int) string {
	switch n {
	case 0:
		return strconv.Itoa(start) + ",0"
	case 1:
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(n)
}

func writeLine(w *strings.Builder, prefix string, l string) {
	w.WriteString(prefix)
	w.WriteString(l)
	if !strings.HasSuffix(l, "\n") {
		w.WriteString("\n\\ No newline at end of file\n")
	}
}

func writeUnified(w *strings.Builder, a, b []string, blocks []block, context int) {
	for g := 0; g < len(blocks); {
		h := g
		for h+1 < len(blocks) && blocks[h+1].a0-blocks[h].a1 <= 2*context {
			h++
		}
		first, last := blocks[g], blocks[h]
		before := min(context, first.a0)
		after := min(context, len(a)-last.a1)
		a0, b0 := first.a0-before, first.b0-before
		w.WriteString("@@ -" + hunkRange(a0, last.a1+after-a0) + " +" + hunkRange(b0, last.b1+after-b0) + " @@\n")
		i := a0
		for _, bl := range blocks[g : h+1] {
			for ; i < bl.a0; i++ {
				writeLine(w, " ", a[i])
			}
			for ; i < bl.a1; i++ {
				writeLine(w, "-", a[i])
			}
			for j := bl.b0; j < bl.b1; j++ {
				writeLine(w, "+", b[j])
			}
		}
		for ; i < last.a1+after; i++ {
			writeLine(w, " ", a[i])
		}
		g = h + 1
	}
}

func normalRange(a0, a1 int) string {
	if a1-a0 <= 1 {
		if a1 == a0 {
			return strconv.Itoa(a0)
		}
		return strconv.Itoa(a1)
	}
	return strconv.Itoa(a0+1) + "," + strconv.Itoa(a1)
}

func writeNormal(w *strings.Builder, a, b []string, blocks []block) {
	for _, bl := range blocks {
		switch {
		case bl.b0 == bl.b1:
			w.WriteString(normalRange(bl.a0, bl.a1) + "d" + strconv.Itoa(bl.b0) + "\n")
		case bl.a0 == bl.a1:
			w.WriteString(strconv.Itoa(bl.a0) + "a" + normalRange(bl.b0, bl.b1) + "\n")
		default:
			w.WriteString(normalRange(bl.a0, bl.a1) + "c" + normalRange(bl.b0, bl.b1) + "\n")
		}
		for i := bl.a0; i < bl.a1; i++ {
			writeLine(w, "< ", a[i])
		}
		if bl.a0 < bl.a1 && bl.b0 < bl.b1 {
			w.WriteString("---\n")
		}
		for j := bl.b0; j < bl.b1; j++ {
			writeLine(w, "> ", b[j])
		}
	}
}
