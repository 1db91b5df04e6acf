package coreutils

import (
	"bufio"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

func init() {
	register("grep", "grep [-rRnilLcvwxoqsEFhHz] [-e PATTERN] [-A N] [-B N] [-C N] [--include GLOB] [--exclude GLOB] [--exclude-dir GLOB] PATTERN [FILE]...", grep)
	register("egrep", "egrep PATTERN [FILE]...", func(e *Env, a []string) int { return grep(e, append([]string{"grep", "-E"}, a[1:]...)) })
	register("fgrep", "fgrep PATTERN [FILE]...", func(e *Env, a []string) int { return grep(e, append([]string{"grep", "-F"}, a[1:]...)) })
}

type grepRun struct {
	e                        *Env
	o                        opts
	res                      []*regexp.Regexp
	invert, count, listFiles bool
	listMissing, only, quiet bool
	lineNum, withName, noMsg bool
	after, before            int
	maxCount                 int
	matched, bare            bool
	w                        *bufio.Writer
}

func grep(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "rRnilLcvwxoqsEFGhHIazPU", vals: "eABCmf", numeric: 0, long: map[string]bool{"recursive": false, "line-number": false,
		"ignore-case": false, "files-with-matches": false, "files-without-match": false, "count": false, "invert-match": false, "word-regexp": false,
		"line-regexp": false, "only-matching": false, "quiet": false, "silent": false, "no-messages": false, "extended-regexp": false, "fixed-strings": false,
		"no-filename": false, "with-filename": false, "regexp": true, "after-context": true, "before-context": true, "context": true, "max-count": true,
		"include": true, "exclude": true, "exclude-dir": true, "color": true, "colour": true, "binary-files": true, "file": true, "null": false, "text": false},
		alias: map[string]string{"recursive": "r", "line-number": "n", "ignore-case": "i", "files-with-matches": "l", "files-without-match": "L", "count": "c",
			"invert-match": "v", "word-regexp": "w", "line-regexp": "x", "only-matching": "o", "quiet": "q", "silent": "q", "no-messages": "s",
			"extended-regexp": "E", "fixed-strings": "F", "no-filename": "h", "with-filename": "H", "regexp": "e", "after-context": "A",
			"before-context": "B", "context": "C", "max-count": "m", "file": "f", "text": "a"}}, args)
	if !ok {
		return 2
	}
	pats := o["e"]
	if o.has("f") {
		for _, f := range o["f"] {
			b, err := e.ReadAll(f)
			if err != nil {
				e.FileErr(f, err)
				return 2
			}
			pats = append(pats, splitLines(b)...)
		}
	}
	if !o.has("e") && !o.has("f") {
		if len(ops) == 0 {
			fmt.Fprintln(e.Stderr, "Usage: grep [OPTION]... PATTERNS [FILE]...")
			return 2
		}
		pats = strings.Split(ops[0], "\n")
		ops = ops[1:]
	}
	g := &grepRun{e: e, o: o, invert: o.has("v"), count: o.has("c"), listFiles: o.has("l"), listMissing: o.has("L"),
		only: o.has("o"), quiet: o.has("q"), lineNum: o.has("n"), noMsg: o.has("s"), maxCount: -1}
	fmt.Sscan(o.last("A", o.last("C", "0")), &g.after)
	fmt.Sscan(o.last("B", o.last("C", "0")), &g.before)
	if o.has("m") {
		fmt.Sscan(o.last("m", ""), &g.maxCount)
	}
	for _, p := range pats {
		var s string
		if o.has("F") {
			s = regexp.QuoteMeta(p)
		} else {
			t, err := translateRE(p, o.has("E") || o.has("P"))
			if err != nil {
				e.Errf("%s", err)
				return 2
			}
			s = t
		}
		if o.has("w") {
			s = `(?:^|\b)(?:` + s + `)(?:\b|$)`
			if !o.has("F") {
				s = `\b(?:` + strings.TrimPrefix(s, `(?:^|\b)(?:`)
				s = strings.TrimSuffix(s, `)(?:\b|$)`) + `)\b`
			}
		}
		if o.has("x") {
			s = `^(?:` + s + `)$`
		}
		if o.has("i") {
			s = "(?i)" + s
		}
		re, err := regexp.Compile(s)
		if err != nil {
			e.Errf("invalid regular expression '%s'", p)
			return 2
		}
		g.res = append(g.res, re)
	}
	rec := o.has("r") || o.has("R")
	if len(ops) == 0 {
		if rec {
			ops = []string{"."}
			g.bare = true
		} else {
			ops = []string{"-"}
		}
	}
	g.withName = (len(ops) > 1 || rec) && !o.has("h") || o.has("H")
	g.w = bufio.NewWriter(e.Stdout)
	defer g.w.Flush()
	status := 0
	for _, f := range ops {
		if e.Ctx.Err() != nil {
			return 2
		}
		if f != "-" {
			fi, err := e.FS.Stat(e.Ctx, e.Abs(f))
			if err != nil {
				if !g.noMsg {
					e.FileErr(f, err)
				}
				status = 2
				continue
			}
			if fi.IsDir() {
				if !rec {
					if !g.noMsg {
						e.Errf("%s: Is a directory", f)
					}
					continue
				}
				if st := g.walk(f); st != 0 {
					status = st
				}
				continue
			}
		}
		if !g.included(f, true) && f != "-" && rec {
			continue
		}
		if g.file(f) != nil {
			status = 2
		}
		if g.quiet && g.matched {
			return 0
		}
	}
	if status == 2 && !(g.matched && g.noMsg) {
		return 2
	}
	if g.matched {
		return 0
	}
	return 1
}

func (g *grepRun) included(name string, isFile bool) bool {
	base := path.Base(name)
	if isFile {
		if inc := g.o["include"]; len(inc) > 0 {
			ok := false
			for _, p := range inc {
				if m, _ := doublestar.Match(p, base); m {
					ok = true
				}
			}
			if !ok {
				return false
			}
		}
		for _, p := range g.o["exclude"] {
			if m, _ := doublestar.Match(p, base); m {
				return false
			}
		}
		return true
	}
	for _, p := range g.o["exclude-dir"] {
		if m, _ := doublestar.Match(p, base); m {
			return false
		}
	}
	return true
}

func (g *grepRun) walk(dir string) int {
	e := g.e
	entries, err := e.FS.ReadDirRecursive(e.Ctx, e.Abs(dir))
	if err != nil {
		e.FileErr(dir, err)
		return 2
	}
	prefix := strings.TrimSuffix(dir, "/") + "/"
	if g.bare {
		prefix = ""
	}
	skipped := map[string]bool{}
	status := 0
	for _, en := range entries {
		parent := path.Dir(en.Name)
		if skipped[parent] {
			if en.Kind == "dir" {
				skipped[en.Name] = true
			}
			continue
		}
		if en.Kind == "dir" {
			if !g.included(en.Name, false) {
				skipped[en.Name] = true
			}
			continue
		}
		if en.Kind != "file" || !g.included(en.Name, true) {
			continue
		}
		if g.file(prefix+en.Name) != nil {
			status = 2
		}
		if g.quiet && g.matched {
			return 0
		}
	}
	return status
}

func (g *grepRun) match(line string) [][]int {
	var locs [][]int
	for _, re := range g.res {
		if g.only {
			locs = append(locs, re.FindAllStringIndex(line, -1)...)
		} else if loc := re.FindStringIndex(line); loc != nil {
			return [][]int{loc}
		}
	}
	return locs
}

func (g *grepRun) file(name string) error {
	e := g.e
	data, err := e.ReadAll(name)
	if err != nil {
		if !g.noMsg {
			e.FileErr(name, err)
		}
		return err
	}
	display := name
	if name == "-" {
		display = "(standard input)"
	}
	if strings.IndexByte(string(data[:min(len(data), 8192)]), 0) >= 0 && !g.o.has("a") {
		for _, l := range splitLines(data) {
			if (len(g.match(l)) > 0) != g.invert {
				g.matched = true
				if !g.quiet && !g.count && !g.listFiles {
					fmt.Fprintf(g.w, "Binary file %s matches\n", display)
				}
				break
			}
		}
		return nil
	}
	lines := splitLines(data)
	n := 0
	lastPrinted := -1
	afterLeft := 0
	prefix := func(i int, sep string) {
		if g.withName {
			g.w.WriteString(display + sep)
		}
		if g.lineNum {
			fmt.Fprintf(g.w, "%d%s", i+1, sep)
		}
	}
	for i, l := range lines {
		if g.maxCount >= 0 && n >= g.maxCount {
			break
		}
		locs := g.match(l)
		hit := (len(locs) > 0) != g.invert
		if !hit {
			if afterLeft > 0 && !g.count && !g.listFiles && !g.listMissing && !g.quiet {
				prefix(i, "-")
				g.w.WriteString(l + "\n")
				lastPrinted = i
				afterLeft--
			}
			continue
		}
		n++
		g.matched = true
		if g.quiet || g.listFiles || g.listMissing {
			if g.listFiles || g.quiet {
				break
			}
			continue
		}
		if g.count {
			continue
		}
		if g.before > 0 || g.after > 0 {
			from := max(i-g.before, lastPrinted+1)
			if lastPrinted >= 0 && from > lastPrinted+1 {
				g.w.WriteString("--\n")
			}
			for k := from; k < i; k++ {
				prefix(k, "-")
				g.w.WriteString(lines[k] + "\n")
			}
		}
		if g.only && !g.invert {
			for _, loc := range locs {
				if loc[1] > loc[0] {
					prefix(i, ":")
					g.w.WriteString(l[loc[0]:loc[1]] + "\n")
				}
			}
		} else if !g.only {
			prefix(i, ":")
			g.w.WriteString(l + "\n")
		}
		lastPrinted = i
		afterLeft = g.after
	}
	switch {
	case g.quiet:
	case g.listFiles:
		if n > 0 {
			g.w.WriteString(display + "\n")
		}
	case g.listMissing:
		if n == 0 {
			g.w.WriteString(display + "\n")
		}
	case g.count:
		if g.withName {
			g.w.WriteString(display + ":")
		}
		fmt.Fprintf(g.w, "%d\n", n)
	}
	return nil
}
