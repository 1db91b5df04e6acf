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

	"github.com/nookdev/nook/internal/linediff"
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
	la, lb := linediff.Lines(da), linediff.Lines(db)
	key := o.key
	if !o.icase && !o.spaces && !o.allSpace {
		key = nil
	}
	blocks := linediff.Changes(linediff.EditsFunc(la, lb, linediff.GNU, key))
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
		linediff.WriteHunks(&w, la, lb, blocks, o.context, nil)
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

// normalRange formats a range of lines for the normal format: "3" for
// one line, "2,4" for several, the line before it for an empty range.
func normalRange(a0, a1 int) string {
	if a1-a0 <= 1 {
		if a1 == a0 {
			return strconv.Itoa(a0)
		}
		return strconv.Itoa(a1)
	}
	return strconv.Itoa(a0+1) + "," + strconv.Itoa(a1)
}

// writeNormal writes the changes in diff's default format: "2,3c2",
// "5a6", "7d6" commands, "< " and "> " lines and "---" between the two
// sides of a change.
func writeNormal(w *strings.Builder, a, b []string, blocks []linediff.Change) {
	for _, bl := range blocks {
		switch {
		case bl.B0 == bl.B1:
			w.WriteString(normalRange(bl.A0, bl.A1) + "d" + strconv.Itoa(bl.B0) + "\n")
		case bl.A0 == bl.A1:
			w.WriteString(strconv.Itoa(bl.A0) + "a" + normalRange(bl.B0, bl.B1) + "\n")
		default:
			w.WriteString(normalRange(bl.A0, bl.A1) + "c" + normalRange(bl.B0, bl.B1) + "\n")
		}
		for i := bl.A0; i < bl.A1; i++ {
			linediff.WriteLine(w, "< ", a[i])
		}
		if bl.A0 < bl.A1 && bl.B0 < bl.B1 {
			w.WriteString("---\n")
		}
		for j := bl.B0; j < bl.B1; j++ {
			linediff.WriteLine(w, "> ", b[j])
		}
	}
}
