package git

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/nookdev/nook/internal/linediff"
)

var grepOpts = []opt{
	{short: 'n', long: "line-number"}, {short: 'i', long: "ignore-case"}, {short: 'l', long: "files-with-matches"},
	{short: 'L', long: "files-without-match"}, {short: 'c', long: "count"}, {short: 'w', long: "word-regexp"},
	{short: 'v', long: "invert-match"}, {short: 'E', long: "extended-regexp"}, {short: 'F', long: "fixed-strings"},
	{short: 'G', long: "basic-regexp"}, {short: 'e', arg: argRequired, key: "e"}, {short: 'h', key: "h"}, {short: 'q', long: "quiet"},
	{long: "cached"}, {long: "untracked"}, {long: "no-color", key: "no-color"}, {short: 'I', key: "I"},
}

// breToGo turns a POSIX basic regular expression (git grep's default)
// into Go syntax: +, ?, |, (), {} are literal unless escaped.
func breToGo(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			n := s[i+1]
			i++
			if strings.IndexByte("+?|(){}", n) >= 0 {
				b.WriteByte(n)
			} else {
				b.WriteByte('\\')
				b.WriteByte(n)
			}
			continue
		}
		if strings.IndexByte("+?|(){}", c) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

func cmdGrep(x *cli, args []string) int {
	f, err := parseOpts(args, grepOpts, "usage: git grep [<options>] [-e] <pattern> [<rev>...] [[--] <path>...]\n", false, "")
	if err != nil {
		return x.fail(err)
	}
	if f.has("untracked") {
		return x.notSupported("grep", "untracked")
	}
	pats := f.all("e")
	pos := f.pos
	if len(pats) == 0 {
		if len(pos) == 0 {
			return x.fatal("no pattern given")
		}
		pats, pos = pos[:1], pos[1:]
	}
	var res []string
	for _, p := range pats {
		switch {
		case f.has("fixed-strings"):
			p = regexp.QuoteMeta(p)
		case !f.has("extended-regexp"):
			p = breToGo(p)
		}
		if f.has("word-regexp") {
			p = `\b(?:` + p + `)\b`
		}
		res = append(res, "(?:"+p+")")
	}
	expr := strings.Join(res, "|")
	if f.has("ignore-case") {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return x.fatal("command line, '%s': %s", strings.Join(pats, " "), err)
	}
	// Revisions, then paths.
	var rev string
	var paths []string
	for i, p := range pos {
		if _, err := x.rev(p); err == nil && rev == "" && len(paths) == 0 {
			rev = p
			continue
		}
		paths = append(paths, pos[i:]...)
		break
	}
	paths = append(paths, f.paths...)
	if len(paths) == 0 && x.prefix != "" {
		paths = []string{"."}
	}
	ps, err := x.spec(paths)
	if err != nil {
		return x.fail(err)
	}
	type file struct {
		name string
		read func() ([]byte, error)
	}
	var files []file
	if rev != "" {
		h, _ := x.rev(rev)
		fl, err := x.r.commitFlat(h)
		if err != nil {
			return x.fail(err)
		}
		for _, n := range fl.sorted() {
			if ps.match(n) {
				t := fl[n]
				files = append(files, file{rev + ":" + n, func() ([]byte, error) { return x.r.readBlob(t.hash) }})
			}
		}
	} else {
		ix, err := x.r.readIndex()
		if err != nil {
			return x.fail(err)
		}
		ws, _ := x.scan()
		for _, n := range ix.flatNames() {
			if !ps.match(n) {
				continue
			}
			n := n
			if f.has("cached") {
				e := ix.get(n)
				if e == nil {
					continue
				}
				files = append(files, file{n, func() ([]byte, error) { return x.r.readBlob(e.Hash) }})
				continue
			}
			w, ok := ws[n]
			if !ok {
				continue
			}
			files = append(files, file{n, func() ([]byte, error) { return x.readWork(n, w) }})
		}
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].name < files[j].name })
	found := false
	for _, fl := range files {
		data, err := fl.read()
		if err != nil {
			continue
		}
		name := fl.name
		if rev == "" {
			name = x.display(name)
		} else {
			r, p, _ := strings.Cut(name, ":")
			name = r + ":" + x.display(p)
		}
		if isBinary(data) {
			if re.Match(data) != f.has("invert-match") && !f.has("I") {
				found = true
				if f.has("quiet") {
					return 0
				}
				if f.has("files-with-matches") {
					x.printf("%s\n", name)
				} else {
					x.printf("Binary file %s matches\n", name)
				}
			}
			continue
		}
		count := 0
		for i, l := range linediff.Lines(data) {
			l = strings.TrimSuffix(l, "\n")
			if re.MatchString(l) == f.has("invert-match") {
				continue
			}
			count++
			found = true
			if f.has("quiet") {
				return 0
			}
			if f.has("files-with-matches") || f.has("files-without-match") || f.has("count") {
				continue
			}
			pfx := name + ":"
			if f.has("h") {
				pfx = ""
			}
			if f.has("line-number") {
				pfx += strconv.Itoa(i+1) + ":"
			}
			x.printf("%s%s\n", pfx, l)
		}
		switch {
		case f.has("files-with-matches") && count > 0:
			x.printf("%s\n", name)
		case f.has("files-without-match") && count == 0:
			x.printf("%s\n", name)
		case f.has("count") && count > 0:
			x.printf("%s:%d\n", name, count)
		}
	}
	if f.has("files-without-match") {
		if x.out.Len() == 0 {
			return 1
		}
		return 0
	}
	if !found {
		return 1
	}
	return 0
}

var blameOpts = []opt{
	{short: 'L', arg: argRequired, key: "L"}, {short: 's', key: "s"}, {short: 'e', long: "show-email"}, {short: 'l', key: "l"},
	{long: "porcelain"}, {short: 'w', key: "w"}, {long: "root"},
}

func cmdBlame(x *cli, args []string) int {
	f, err := parseOpts(args, blameOpts, "usage: git blame [<options>] [<rev-opts>] [<rev>] [--] <file>\n", false, "")
	if err != nil {
		return x.fail(err)
	}
	if f.has("porcelain") || f.has("w") {
		return x.fatal("git blame --porcelain and -w are not supported by nook's git")
	}
	pos := append(f.pos, f.paths...)
	rev := ""
	if len(pos) == 2 {
		rev, pos = pos[0], pos[1:]
	}
	if len(pos) != 1 {
		return x.fail(&usageErr{usage: "usage: git blame [<options>] [<rev-opts>] [<rev>] [--] <file>\n"})
	}
	rel, err := x.toRel(pos[0])
	if err != nil {
		return x.fail(err)
	}
	_, head := x.head()
	start := head
	if rev != "" {
		if start, err = x.rev(rev); err != nil {
			return x.fail(err)
		}
	}
	files, _ := x.r.commitFlat(start)
	t, ok := files[rel]
	var final []byte
	if rev == "" {
		ws, _ := x.scan()
		w, inWork := ws[rel]
		if !inWork && !ok {
			return x.fatal("no such path '%s' in HEAD", pos[0])
		}
		if inWork {
			final, _ = x.readWork(rel, w)
		}
	} else if !ok {
		return x.fatal("no such path %s in %s", pos[0], rev)
	}
	if final == nil {
		final, _ = x.r.readBlob(t.hash)
	}
	lines := linediff.Lines(final)
	owner := make([]*object.Commit, len(lines)) // nil: not committed yet
	boundary := map[plumbing.Hash]bool{}
	// Lines still looking for their commit: index in final → index in
	// the version being examined.
	type track struct{ finalIdx, idx int }
	var pending []track
	var cur *object.Commit
	var curLines []string
	if ok {
		cur, _ = x.r.CommitObject(start)
		headData, _ := x.r.readBlob(t.hash)
		curLines = linediff.Lines(headData)
		del, ins := linediff.Edits(curLines, lines)
		i, j := 0, 0
		for i < len(curLines) || j < len(lines) {
			switch {
			case i < len(curLines) && del[i]:
				i++
			case j < len(lines) && ins[j]:
				j++
			default:
				pending = append(pending, track{j, i})
				i, j = i+1, j+1
			}
		}
	}
	for cur != nil && len(pending) > 0 {
		if len(cur.ParentHashes) == 0 {
			for _, p := range pending {
				owner[p.finalIdx] = cur
			}
			boundary[cur.Hash] = true
			break
		}
		parent, err := x.r.CommitObject(cur.ParentHashes[0])
		if err != nil {
			break
		}
		pf, _ := x.r.commitFlat(parent.Hash)
		pt, inParent := pf[rel]
		if !inParent {
			for _, p := range pending {
				owner[p.finalIdx] = cur
			}
			break
		}
		pdata, _ := x.r.readBlob(pt.hash)
		plines := linediff.Lines(pdata)
		del, ins := linediff.Edits(plines, curLines)
		mapTo := make([]int, len(curLines))
		i, j := 0, 0
		for i < len(plines) || j < len(curLines) {
			switch {
			case i < len(plines) && del[i]:
				i++
			case j < len(curLines) && ins[j]:
				mapTo[j] = -1
				j++
			default:
				mapTo[j] = i
				i, j = i+1, j+1
			}
		}
		var next []track
		for _, p := range pending {
			if m := mapTo[p.idx]; m >= 0 {
				next = append(next, track{p.finalIdx, m})
			} else {
				owner[p.finalIdx] = cur
			}
		}
		pending, cur, curLines = next, parent, plines
	}
	lo, hi := 1, len(lines)
	if f.has("L") {
		a, b, _ := strings.Cut(f.str("L"), ",")
		lo = atoiOr(a, 1)
		if b != "" {
			if strings.HasPrefix(b, "+") {
				hi = lo + atoiOr(b[1:], 1) - 1
			} else {
				hi = atoiOr(b, len(lines))
			}
		}
		if lo < 1 || lo > len(lines) {
			return x.fatal("file %s has only %d lines", pos[0], len(lines))
		}
		if hi > len(lines) {
			hi = len(lines)
		}
	}
	nameW := 0
	for i := lo - 1; i < hi; i++ {
		n := "Not Committed Yet"
		if owner[i] != nil {
			n = owner[i].Author.Name
			if f.has("show-email") {
				n = "<" + owner[i].Author.Email + ">"
			}
		}
		if len(n) > nameW {
			nameW = len(n)
		}
	}
	numW := len(strconv.Itoa(hi))
	for i := lo - 1; i < hi; i++ {
		c := owner[i]
		hash, name, date := strings.Repeat("0", 8), "Not Committed Yet", x.now()
		if c != nil {
			hash = c.Hash.String()[:8]
			if boundary[c.Hash] {
				hash = "^" + c.Hash.String()[:7]
			}
			name, date = c.Author.Name, c.Author.When
			if f.has("show-email") {
				name = "<" + c.Author.Email + ">"
			}
		}
		if f.has("l") {
			hash = strings.Repeat("0", 40)
			if c != nil {
				hash = c.Hash.String()
				if boundary[c.Hash] {
					hash = "^" + c.Hash.String()[:39]
				}
			}
		}
		text := strings.TrimSuffix(lines[i], "\n")
		if f.has("s") {
			x.printf("%s %*d) %s\n", hash, numW, i+1, text)
			continue
		}
		x.printf("%s (%-*s %s %*d) %s\n", hash, nameW, name, date.Format("2006-01-02 15:04:05 -0700"), numW, i+1, text)
	}
	return 0
}

var _ = fmt.Sprint
