package coreutils

import (
	"bufio"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

func init() {
	register("sort", "sort [-nrufbsVh] [-k POS1[,POS2]] [-t SEP] [-o FILE] [FILE]...", sortCmd)
	register("uniq", "uniq [-cdui] [-f N] [-s N] [INPUT [OUTPUT]]", uniq)
	register("cut", "cut -f LIST [-d DELIM] [-s] | -c LIST | -b LIST [FILE]...", cut)
	register("tr", "tr [-dsc] SET1 [SET2]", tr)
	register("seq", "seq [-s SEP] [-w] [-f FMT] [FIRST [INCREMENT]] LAST", seq)
}

type sortKey struct {
	f1, c1, f2, c2 int
	n, r, b, f, h  bool
}

func parseKey(s string, global sortKey) (sortKey, bool) {
	k := global
	k.f1, k.c1, k.f2, k.c2 = 0, 0, 0, 0
	start, end, hasEnd := strings.Cut(s, ",")
	parse := func(p string) (int, int, string, bool) {
		i := 0
		for i < len(p) && p[i] >= '0' && p[i] <= '9' {
			i++
		}
		f, err := strconv.Atoi(p[:i])
		if err != nil {
			return 0, 0, "", false
		}
		c := 0
		rest := p[i:]
		if strings.HasPrefix(rest, ".") {
			j := 1
			for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
				j++
			}
			c, _ = strconv.Atoi(rest[1:j])
			rest = rest[j:]
		}
		return f, c, rest, true
	}
	f, c, flags, ok := parse(start)
	if !ok || f < 1 {
		return k, false
	}
	k.f1, k.c1 = f, c
	opts := flags
	if hasEnd {
		f, c, fl, ok := parse(end)
		if !ok {
			return k, false
		}
		k.f2, k.c2 = f, c
		opts += fl
	}
	if opts != "" {
		k.n, k.r, k.b, k.f, k.h = false, false, false, false, false
		for _, o := range opts {
			switch o {
			case 'n':
				k.n = true
			case 'r':
				k.r = true
			case 'b':
				k.b = true
			case 'f':
				k.f = true
			case 'h':
				k.h = true
			case 'g':
				k.n = true
			}
		}
	}
	return k, true
}

// fieldsOf splits a line into sort fields: on sep, or at blank-to-nonblank
// transitions (each field keeps its leading blanks) as GNU sort does.
func fieldsOf(line string, sep string) []string {
	if sep != "" {
		return strings.Split(line, sep)
	}
	var out []string
	i := 0
	for i < len(line) {
		j := i
		for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		out = append(out, line[i:j])
		i = j
	}
	return out
}

func keyText(line string, k sortKey, sep string) string {
	fs := fieldsOf(line, sep)
	if k.f1 > len(fs) {
		return ""
	}
	joiner := sep
	var b strings.Builder
	last := len(fs)
	if k.f2 > 0 && k.f2 < last {
		last = k.f2
	}
	for i := k.f1 - 1; i < last; i++ {
		f := fs[i]
		if i == k.f1-1 && k.c1 > 0 {
			ff := f
			if k.b || sep == "" {
				ff = strings.TrimLeft(f, " \t")
			}
			if k.c1-1 < len(ff) {
				f = ff[k.c1-1:]
			} else {
				f = ""
			}
		}
		if i == last-1 && k.f2 > 0 && k.c2 > 0 && i == k.f2-1 {
			if k.c2 < len(f) {
				f = f[:k.c2]
			}
		}
		if i > k.f1-1 {
			b.WriteString(joiner)
		}
		b.WriteString(f)
	}
	s := b.String()
	if k.b {
		s = strings.TrimLeft(s, " \t")
	}
	return s
}

// numPrefix parses the leading number of s as sort -n does (blanks, sign,
// digits, one decimal point); anything else is 0.
func numPrefix(s string) float64 {
	s = strings.TrimLeft(s, " \t")
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	dot := false
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' && !dot) {
		if s[i] == '.' {
			dot = true
		}
		i++
	}
	v, _ := strconv.ParseFloat(s[:i], 64)
	return v
}

func humanNum(s string) float64 {
	s = strings.TrimSpace(s)
	mult := 1.0
	if s != "" {
		switch unicode.ToUpper(rune(s[len(s)-1])) {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
	}
	return numPrefix(s) * mult
}

func compareKey(a, b string, k sortKey) int {
	if k.n || k.h {
		var x, y float64
		if k.h {
			x, y = humanNum(a), humanNum(b)
		} else {
			x, y = numPrefix(a), numPrefix(b)
		}
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	if k.f {
		a, b = strings.ToUpper(a), strings.ToUpper(b)
	}
	return strings.Compare(a, b)
}

func sortCmd(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "nrufbsVhcgCzdiM", vals: "ktoST", long: map[string]bool{"numeric-sort": false, "reverse": false, "unique": false,
		"ignore-case": false, "key": true, "field-separator": true, "output": true, "stable": false, "human-numeric-sort": false, "version-sort": false, "check": false, "general-numeric-sort": false},
		alias: map[string]string{"numeric-sort": "n", "reverse": "r", "unique": "u", "ignore-case": "f", "key": "k", "field-separator": "t", "output": "o",
			"stable": "s", "human-numeric-sort": "h", "version-sort": "V", "check": "c", "general-numeric-sort": "g"}}, args)
	if !ok {
		return 2
	}
	global := sortKey{n: o.has("n") || o.has("g"), r: o.has("r"), b: o.has("b"), f: o.has("f"), h: o.has("h")}
	sep := o.last("t", "")
	if sep == `\t` {
		sep = "\t"
	}
	var keys []sortKey
	for _, ks := range o["k"] {
		k, ok := parseKey(ks, global)
		if !ok {
			e.Errf("invalid number at field start: invalid count at start of '%s'", ks)
			return 2
		}
		keys = append(keys, k)
	}
	var lines []string
	status := e.Inputs(files, func(_ string, b []byte) { lines = append(lines, splitLines(b)...) })
	if status != 0 {
		return 2
	}
	cmp := func(a, b string) int {
		for _, k := range keys {
			c := compareKey(keyText(a, k, sep), keyText(b, k, sep), k)
			if k.r {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		if len(keys) == 0 {
			x, y := a, b
			if global.b {
				x, y = strings.TrimLeft(x, " \t"), strings.TrimLeft(y, " \t")
			}
			c := compareKey(x, y, global)
			if o.has("V") {
				c = versionCmp(x, y)
			}
			if global.r {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		if o.has("u") || o.has("s") {
			return 0
		}
		// last resort: the whole line, byte order
		c := strings.Compare(a, b)
		if global.r {
			c = -c
		}
		return c
	}
	if o.has("c") || o.has("C") {
		for i := 1; i < len(lines); i++ {
			if c := cmp(lines[i-1], lines[i]); c > 0 || (c == 0 && o.has("u")) {
				if !o.has("C") {
					fmt.Fprintf(e.Stderr, "sort: %s:%d: disorder: %s\n", firstOr(files, "-"), i+1, lines[i])
				}
				return 1
			}
		}
		return 0
	}
	sort.SliceStable(lines, func(i, j int) bool { return cmp(lines[i], lines[j]) < 0 })
	if o.has("u") {
		out := lines[:0]
		for i, l := range lines {
			if i == 0 || cmp(out[len(out)-1], l) != 0 {
				out = append(out, l)
			}
		}
		lines = out
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if of := o.last("o", ""); of != "" {
		if err := e.FS.WriteFile(e.Ctx, e.Abs(of), []byte(b.String()), "w"); err != nil {
			e.Errf("open failed: %s: %s", of, textOf(err))
			return 2
		}
		return 0
	}
	w := bufio.NewWriter(e.Stdout)
	w.WriteString(b.String())
	w.Flush()
	return 0
}

func firstOr(l []string, d string) string {
	if len(l) > 0 {
		return l[0]
	}
	return d
}

// versionCmp compares like sort -V: runs of digits numerically.
func versionCmp(a, b string) int {
	for a != "" && b != "" {
		da, db := a[0] >= '0' && a[0] <= '9', b[0] >= '0' && b[0] <= '9'
		if da && db {
			i, j := 0, 0
			for i < len(a) && a[i] >= '0' && a[i] <= '9' {
				i++
			}
			for j < len(b) && b[j] >= '0' && b[j] <= '9' {
				j++
			}
			x, _ := strconv.ParseUint(a[:i], 10, 64)
			y, _ := strconv.ParseUint(b[:j], 10, 64)
			if x != y {
				if x < y {
					return -1
				}
				return 1
			}
			a, b = a[i:], b[j:]
			continue
		}
		if a[0] != b[0] {
			if a[0] < b[0] {
				return -1
			}
			return 1
		}
		a, b = a[1:], b[1:]
	}
	return strings.Compare(a, b)
}

func uniq(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "cduiz", vals: "fsw", long: map[string]bool{"count": false, "repeated": false, "unique": false, "ignore-case": false,
		"skip-fields": true, "skip-chars": true, "check-chars": true},
		alias: map[string]string{"count": "c", "repeated": "d", "unique": "u", "ignore-case": "i", "skip-fields": "f", "skip-chars": "s", "check-chars": "w"}}, args)
	if !ok {
		return 1
	}
	in := "-"
	if len(files) > 0 {
		in = files[0]
	}
	b, err := e.ReadAll(in)
	if err != nil {
		e.FileErr(in, err)
		return 1
	}
	skipF, _ := strconv.Atoi(o.last("f", "0"))
	skipC, _ := strconv.Atoi(o.last("s", "0"))
	checkW, _ := strconv.Atoi(o.last("w", "0"))
	key := func(l string) string {
		for i := 0; i < skipF; i++ {
			l = strings.TrimLeft(l, " \t")
			j := strings.IndexAny(l, " \t")
			if j < 0 {
				l = ""
				break
			}
			l = l[j:]
		}
		if skipC < len(l) {
			l = l[skipC:]
		} else {
			l = ""
		}
		if checkW > 0 && checkW < len(l) {
			l = l[:checkW]
		}
		if o.has("i") {
			l = strings.ToLower(l)
		}
		return l
	}
	var out strings.Builder
	lines := splitLines(b)
	emit := func(l string, n int) {
		if o.has("d") && n < 2 || o.has("u") && n > 1 {
			return
		}
		if o.has("c") {
			fmt.Fprintf(&out, "%7d %s\n", n, l)
		} else {
			out.WriteString(l + "\n")
		}
	}
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && key(lines[j]) == key(lines[i]) {
			j++
		}
		emit(lines[i], j-i)
		i = j
	}
	if len(files) > 1 {
		if err := e.FS.WriteFile(e.Ctx, e.Abs(files[1]), []byte(out.String()), "w"); err != nil {
			e.FileErr(files[1], err)
			return 1
		}
		return 0
	}
	fmt.Fprint(e.Stdout, out.String())
	return 0
}

// ranges parses a cut LIST ("1,3-5,7-").
type span struct{ lo, hi int }

func parseList(s string) ([]span, bool) {
	var out []span
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		var sp span
		var err error
		if lo == "" {
			sp.lo = 1
		} else if sp.lo, err = strconv.Atoi(lo); err != nil || sp.lo < 1 {
			return nil, false
		}
		if !isRange {
			sp.hi = sp.lo
		} else if hi == "" {
			sp.hi = 1 << 30
		} else if sp.hi, err = strconv.Atoi(hi); err != nil || sp.hi < sp.lo {
			return nil, false
		}
		out = append(out, sp)
	}
	return out, true
}

func inList(l []span, i int) bool {
	for _, s := range l {
		if i >= s.lo && i <= s.hi {
			return true
		}
	}
	return false
}

func cut(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "snz", vals: "fdcb", long: map[string]bool{"fields": true, "delimiter": true, "characters": true, "bytes": true,
		"only-delimited": false, "output-delimiter": true, "complement": false},
		alias: map[string]string{"fields": "f", "delimiter": "d", "characters": "c", "bytes": "b", "only-delimited": "s"}}, args)
	if !ok {
		return 1
	}
	mode, spec := "", ""
	for _, m := range []string{"f", "c", "b"} {
		if o.has(m) {
			mode, spec = m, o.last(m, "")
		}
	}
	if mode == "" {
		e.Errf("you must specify a list of bytes, characters, or fields")
		return 1
	}
	list, ok := parseList(spec)
	if !ok {
		e.Errf("invalid field value '%s'", spec)
		return 1
	}
	delim := o.last("d", "\t")
	if len([]rune(delim)) != 1 {
		e.Errf("the delimiter must be a single character")
		return 1
	}
	outDelim := o.last("output-delimiter", delim)
	comp := o.has("complement")
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	return e.Inputs(files, func(_ string, b []byte) {
		for _, l := range splitLines(b) {
			if mode == "f" {
				if !strings.Contains(l, delim) {
					if !o.has("s") {
						w.WriteString(l + "\n")
					}
					continue
				}
				fs := strings.Split(l, delim)
				var sel []string
				for i, f := range fs {
					if inList(list, i+1) != comp {
						sel = append(sel, f)
					}
				}
				w.WriteString(strings.Join(sel, outDelim) + "\n")
				continue
			}
			var units []string
			if mode == "c" {
				for _, r := range l {
					units = append(units, string(r))
				}
			} else {
				for i := 0; i < len(l); i++ {
					units = append(units, l[i:i+1])
				}
			}
			var sb strings.Builder
			for i, u := range units {
				if inList(list, i+1) != comp {
					sb.WriteString(u)
				}
			}
			w.WriteString(sb.String() + "\n")
		}
	})
}

// expandSet expands a tr set: ranges, escapes and [:classes:].
func expandSet(s string) []rune {
	classes := map[string]func(rune) bool{
		"alpha": unicode.IsLetter, "digit": unicode.IsDigit, "alnum": func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) },
		"upper": unicode.IsUpper, "lower": unicode.IsLower, "space": unicode.IsSpace, "blank": func(r rune) bool { return r == ' ' || r == '\t' },
		"punct": func(r rune) bool { return r < 128 && unicode.IsPunct(r) || r < 128 && unicode.IsSymbol(r) }, "print": func(r rune) bool { return r >= 32 && r < 127 },
		"cntrl": unicode.IsControl, "xdigit": func(r rune) bool { return strings.ContainsRune("0123456789abcdefABCDEF", r) },
	}
	rs := []rune(unescapeTr(s))
	var out []rune
	for i := 0; i < len(rs); i++ {
		if rs[i] == '[' && i+1 < len(rs) && rs[i+1] == ':' {
			end := strings.Index(string(rs[i:]), ":]")
			if end > 0 {
				name := string(rs[i+2 : i+end])
				if f, ok := classes[name]; ok {
					for r := rune(0); r < 128; r++ {
						if f(r) {
							out = append(out, r)
						}
					}
					i += end + 1
					continue
				}
			}
		}
		if i+2 < len(rs) && rs[i+1] == '-' {
			for r := rs[i]; r <= rs[i+2]; r++ {
				out = append(out, r)
			}
			i += 2
			continue
		}
		out = append(out, rs[i])
	}
	return out
}

func unescapeTr(s string) string { return unescapeC(s, false) }

// unescapeC interprets C escapes; printf's also has \xHH, \f, \v and \b.
func unescapeC(s string, printf bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'e':
			b.WriteByte(27)
		case '"':
			b.WriteByte('"')
		case '\\':
			b.WriteByte('\\')
		case 'f', 'v', 'b', 'x':
			if !printf {
				b.WriteByte(s[i])
				break
			}
			switch s[i] {
			case 'f':
				b.WriteByte('\f')
			case 'v':
				b.WriteByte('\v')
			case 'b':
				b.WriteByte('\b')
			case 'x':
				j := i + 1
				for j < len(s) && j < i+3 && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
					j++
				}
				if j == i+1 {
					b.WriteString("\\x")
					break
				}
				v, _ := strconv.ParseUint(s[i+1:j], 16, 8)
				b.WriteByte(byte(v))
				i = j - 1
			}
		case 'u', 'U':
			// \uHHHH and \UHHHHHHHH (printf): the character, in UTF-8.
			n := 4
			if s[i] == 'U' {
				n = 8
			}
			j := i + 1
			for j < len(s) && j < i+1+n && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
				j++
			}
			if !printf || j == i+1 {
				if printf {
					b.WriteByte('\\')
				}
				b.WriteByte(s[i])
				break
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			b.WriteRune(rune(v))
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 8)
			b.WriteByte(byte(v))
			i = j - 1
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func tr(e *Env, args []string) int {
	o, sets, ok := e.parse(&flagSpec{bools: "dscCt", long: map[string]bool{"delete": false, "squeeze-repeats": false, "complement": false},
		alias: map[string]string{"delete": "d", "squeeze-repeats": "s", "complement": "c"}}, args)
	if !ok {
		return 1
	}
	if len(sets) == 0 {
		e.Errf("missing operand")
		return 1
	}
	comp := o.has("c") || o.has("C")
	set1 := expandSet(sets[0])
	in1 := map[rune]bool{}
	for _, r := range set1 {
		in1[r] = true
	}
	member := func(r rune) bool { return in1[r] != comp }
	var set2 []rune
	if len(sets) > 1 {
		set2 = expandSet(sets[1])
	}
	mapping := map[rune]rune{}
	if !o.has("d") && len(set2) > 0 && !comp {
		for i, r := range set1 {
			j := i
			if j >= len(set2) {
				j = len(set2) - 1
			}
			mapping[r] = set2[j]
		}
	}
	squeezeSet := map[rune]bool{}
	if o.has("s") {
		src := set1
		if len(set2) > 0 {
			src = set2
		}
		for _, r := range src {
			squeezeSet[r] = true
		}
	}
	b, err := e.readStdin()
	if err != nil {
		return 1
	}
	var out strings.Builder
	var last rune = -1
	for _, r := range string(b) {
		if o.has("d") && member(r) {
			continue
		}
		if m, ok := mapping[r]; ok {
			r = m
		} else if comp && len(set2) > 0 && member(r) && !o.has("d") {
			r = set2[len(set2)-1]
		}
		if o.has("s") && r == last && (squeezeSet[r] || comp && len(set2) == 0 && member(r)) {
			continue
		}
		out.WriteRune(r)
		last = r
	}
	fmt.Fprint(e.Stdout, out.String())
	return 0
}

func seq(e *Env, args []string) int {
	// negative numbers are operands, not options
	var sep, format = "\n", ""
	width := false
	var nums []string
	a := args[1:]
	for i := 0; i < len(a); i++ {
		switch {
		case a[i] == "-s" && i+1 < len(a):
			sep = unescapeTr(a[i+1])
			i++
		case strings.HasPrefix(a[i], "-s") && len(a[i]) > 2 && !isNum(a[i]):
			sep = unescapeTr(a[i][2:])
		case a[i] == "-f" && i+1 < len(a):
			format = a[i+1]
			i++
		case a[i] == "-w":
			width = true
		default:
			nums = append(nums, a[i])
		}
	}
	if len(nums) == 0 || len(nums) > 3 {
		e.Errf("missing operand")
		return 1
	}
	vals := make([]float64, len(nums))
	prec := 0
	for i, n := range nums {
		v, err := strconv.ParseFloat(n, 64)
		if err != nil {
			e.Errf("invalid floating point argument: '%s'", n)
			return 1
		}
		vals[i] = v
		if d := strings.IndexByte(n, '.'); d >= 0 && i < 2 {
			prec = max(prec, len(n)-d-1)
		}
	}
	first, inc, last := 1.0, 1.0, vals[0]
	switch len(vals) {
	case 2:
		first, last = vals[0], vals[1]
	case 3:
		first, inc, last = vals[0], vals[1], vals[2]
	}
	if inc == 0 {
		e.Errf("invalid Zero increment value: '%s'", nums[1])
		return 1
	}
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	wd := 0
	if width {
		wd = max(len(strconv.FormatFloat(first, 'f', prec, 64)), len(strconv.FormatFloat(last, 'f', prec, 64)))
	}
	n := 0
	for i := 0; ; i++ {
		v := first + float64(i)*inc
		if inc > 0 && v > last+1e-9 || inc < 0 && v < last-1e-9 {
			break
		}
		if n > 0 {
			w.WriteString(sep)
		}
		if n%4096 == 0 && e.Ctx.Err() != nil {
			return 1
		}
		n++
		switch {
		case format != "":
			s, _, _ := formatC(format, []any{v})
			w.WriteString(s)
		case wd > 0:
			s := strconv.FormatFloat(v, 'f', prec, 64)
			w.WriteString(strings.Repeat("0", max(0, wd-len(s))) + s)
		default:
			w.WriteString(strconv.FormatFloat(v, 'f', prec, 64))
		}
	}
	if n > 0 {
		w.WriteString("\n")
	}
	return 0
}

func isNum(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}
