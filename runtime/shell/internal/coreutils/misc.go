package coreutils

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash"
	"sort"
	"strconv"
	"strings"
	"time"
)

func init() {
	register("true", "true", func(*Env, []string) int { return 0 })
	register("false", "false", func(*Env, []string) int { return 1 })
	register("sleep", "sleep NUMBER[smhd]...", sleep)
	register("date", "date [-u] [-d DATE] [+FORMAT]", date)
	register("env", "env [-i] [NAME=VALUE]... [COMMAND [ARG]...]", env)
	register("printenv", "printenv [NAME]...", printenv)
	register("mktemp", "mktemp [-d] [-p DIR] [TEMPLATE]", mktemp)
	register("base64", "base64 [-d] [-w COLS] [FILE]", base64Cmd)
	register("md5sum", "md5sum [FILE]...", hashCmd(md5.New))
	register("sha1sum", "sha1sum [FILE]...", hashCmd(sha1.New))
	register("sha256sum", "sha256sum [FILE]...", hashCmd(sha256.New))
	register("sha512sum", "sha512sum [FILE]...", hashCmd(sha512.New))
	register("expr", "expr EXPRESSION", exprCmd)
	register("column", "column [-t] [-s SEP] [FILE]...", column)
	register("od", "od [-c] [-An] [-t x1] [FILE]", od)
	register("xxd", "xxd [-p] [FILE]", xxd)
	register("uname", "uname [-a]", func(e *Env, a []string) int { fmt.Fprintln(e.Stdout, "Linux"); return 0 })
	register("whoami", "whoami", func(e *Env, a []string) int { fmt.Fprintln(e.Stdout, "nook"); return 0 })
	register("hostname", "hostname", func(e *Env, a []string) int { fmt.Fprintln(e.Stdout, "nook"); return 0 })
}

func sleep(e *Env, args []string) int {
	var total time.Duration
	for _, a := range args[1:] {
		d, ok := parseDuration(a)
		if !ok {
			e.Errf("invalid time interval '%s'", a)
			return 1
		}
		total += d
	}
	if e.VirtualTime {
		return 0
	}
	t := time.NewTimer(total)
	defer t.Stop()
	select {
	case <-t.C:
		return 0
	case <-e.Ctx.Done():
		return 1
	}
}

// strftime renders the date(1) format directives models use.
func strftime(f string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		pad := true
		if f[i] == '-' && i+1 < len(f) {
			pad = false
			i++
		}
		num := func(v, w int) {
			if pad {
				fmt.Fprintf(&b, "%0*d", w, v)
			} else {
				fmt.Fprint(&b, v)
			}
		}
		switch f[i] {
		case 'Y':
			fmt.Fprint(&b, t.Year())
		case 'y':
			num(t.Year()%100, 2)
		case 'm':
			num(int(t.Month()), 2)
		case 'd':
			num(t.Day(), 2)
		case 'e':
			fmt.Fprintf(&b, "%2d", t.Day())
		case 'H':
			num(t.Hour(), 2)
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			num(h, 2)
		case 'M':
			num(t.Minute(), 2)
		case 'S':
			num(t.Second(), 2)
		case 'N':
			fmt.Fprintf(&b, "%09d", t.Nanosecond())
		case 's':
			fmt.Fprint(&b, t.Unix())
		case 'j':
			num(t.YearDay(), 3)
		case 'U': // week of the year, Sunday first
			num((t.YearDay()+6-int(t.Weekday()))/7, 2)
		case 'W': // week of the year, Monday first
			num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2)
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'b', 'h':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'p':
			b.WriteString(t.Format("PM"))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 'z':
			b.WriteString(t.Format("-0700"))
		case 'F':
			b.WriteString(t.Format("2006-01-02"))
		case 'T':
			b.WriteString(t.Format("15:04:05"))
		case 'D':
			b.WriteString(t.Format("01/02/06"))
		case 'R':
			b.WriteString(t.Format("15:04"))
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			fmt.Fprint(&b, wd)
		case 'w':
			fmt.Fprint(&b, int(t.Weekday()))
		case 'c':
			b.WriteString(t.Format("Mon Jan _2 15:04:05 2006"))
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(f[i])
		}
	}
	return b.String()
}

func date(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "uRI", vals: "dr", long: map[string]bool{"utc": false, "date": true, "iso-8601": false, "rfc-3339": true, "reference": true},
		alias: map[string]string{"utc": "u", "date": "d", "reference": "r"}}, args)
	if !ok {
		return 1
	}
	t := e.Now().UTC()
	if o.has("d") {
		v, ok := parseDate(o.last("d", ""), t)
		if !ok {
			e.Errf("invalid date '%s'", o.last("d", ""))
			return 1
		}
		t = v.UTC()
	}
	if o.has("r") {
		fi, err := e.FS.Stat(e.Ctx, e.Abs(o.last("r", "")))
		if err != nil {
			e.FileErr(o.last("r", ""), err)
			return 1
		}
		t = fi.ModTime().UTC()
	}
	format := "%a %b %e %H:%M:%S %Z %Y"
	switch {
	case o.has("I") || o.has("iso-8601"):
		format = "%F"
	case o.has("R"):
		format = "%a, %d %b %Y %H:%M:%S %z"
	case o.has("rfc-3339"):
		format = "%F %T%:z"
		if o.last("rfc-3339", "") == "date" {
			format = "%F"
		}
	}
	for _, a := range ops {
		if strings.HasPrefix(a, "+") {
			format = a[1:]
		}
	}
	fmt.Fprintln(e.Stdout, strings.ReplaceAll(strftime(format, t), "%:z", "+00:00"))
	return 0
}

func env(e *Env, args []string) int {
	a := args[1:]
	vars := append([]string{}, e.Environ...)
	for len(a) > 0 && (a[0] == "-i" || a[0] == "-" || a[0] == "-u") {
		if a[0] == "-u" && len(a) > 1 {
			name := a[1]
			out := vars[:0]
			for _, v := range vars {
				if !strings.HasPrefix(v, name+"=") {
					out = append(out, v)
				}
			}
			vars = out
			a = a[2:]
			continue
		}
		vars = []string{}
		a = a[1:]
	}
	for len(a) > 0 && strings.Contains(a[0], "=") && !strings.HasPrefix(a[0], "=") {
		vars = append(vars, a[0])
		a = a[1:]
	}
	if len(a) == 0 {
		sort.Strings(vars)
		for _, v := range vars {
			fmt.Fprintln(e.Stdout, v)
		}
		return 0
	}
	return e.ExecContext(WithEnviron(e.Ctx, vars), a, e.Stdin, e.Stdout, e.Stderr)
}

func printenv(e *Env, args []string) int {
	if len(args) == 1 {
		vars := append([]string{}, e.Environ...)
		sort.Strings(vars)
		for _, v := range vars {
			fmt.Fprintln(e.Stdout, v)
		}
		return 0
	}
	st := 0
	for _, n := range args[1:] {
		found := false
		for _, v := range e.Environ {
			if k, val, _ := strings.Cut(v, "="); k == n {
				fmt.Fprintln(e.Stdout, val)
				found = true
			}
		}
		if !found {
			st = 1
		}
	}
	return st
}

func mktemp(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "dqtu", vals: "p", long: map[string]bool{"directory": false, "tmpdir": true, "suffix": true},
		alias: map[string]string{"directory": "d", "tmpdir": "p"}}, args)
	if !ok {
		return 1
	}
	tmpl := "tmp.XXXXXXXXXX"
	dir := ""
	if len(ops) > 0 {
		tmpl = ops[0]
	}
	if o.has("p") || o.has("t") || len(ops) == 0 {
		dir = o.last("p", e.Getenv("TMPDIR"))
		if dir == "" {
			dir = e.FS.Root() + "/.tmp"
		}
		if err := e.FS.Mkdir(e.Ctx, e.Abs(dir), true); err != nil {
			e.Errf("failed to create directory via template '%s': %s", tmpl, textOf(err))
			return 1
		}
	}
	n := len(tmpl) - len(strings.TrimRight(tmpl, "X"))
	if n < 3 {
		e.Errf("too few X's in template '%s'", tmpl)
		return 1
	}
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	for try := 0; try < 100; try++ {
		rnd := make([]byte, n)
		e.Random(rnd)
		for i := range rnd {
			rnd[i] = letters[int(rnd[i])%len(letters)]
		}
		name := tmpl[:len(tmpl)-n] + string(rnd) + o.last("suffix", "")
		if dir != "" {
			name = strings.TrimSuffix(dir, "/") + "/" + name
		}
		var err error
		if o.has("d") {
			err = e.FS.Mkdir(e.Ctx, e.Abs(name), false)
		} else {
			err = e.FS.WriteFile(e.Ctx, e.Abs(name), nil, "wx")
		}
		if codeOf(err) == "EEXIST" {
			continue
		}
		if err != nil {
			e.Errf("failed to create file via template '%s': %s", tmpl, textOf(err))
			return 1
		}
		fmt.Fprintln(e.Stdout, name)
		return 0
	}
	return 1
}

func base64Cmd(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "di", vals: "w", long: map[string]bool{"decode": false, "wrap": true, "ignore-garbage": false},
		alias: map[string]string{"decode": "d", "wrap": "w", "ignore-garbage": "i"}}, args)
	if !ok {
		return 1
	}
	wrap, _ := strconv.Atoi(o.last("w", "76"))
	return e.Inputs(files, func(_ string, b []byte) {
		if o.has("d") {
			s := strings.Map(func(r rune) rune {
				if r == '\n' || r == '\r' || r == ' ' {
					return -1
				}
				return r
			}, string(b))
			out, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				out, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
			}
			e.Stdout.Write(out)
			if err != nil {
				e.Errf("invalid input")
			}
			return
		}
		fmt.Fprint(e.Stdout, wrapped(base64.StdEncoding.EncodeToString(b), wrap))
	})
}

func hashCmd(newHash func() hash.Hash) func(*Env, []string) int {
	return func(e *Env, args []string) int {
		o, files, ok := e.parse(&flagSpec{bools: "cbtw", long: map[string]bool{"check": false, "status": false, "quiet": false}, alias: map[string]string{"check": "c"}}, args)
		if !ok {
			return 1
		}
		sum := func(b []byte) string {
			h := newHash()
			h.Write(b)
			return hex.EncodeToString(h.Sum(nil))
		}
		if o.has("c") {
			st := 0
			e.Inputs(files, func(_ string, b []byte) {
				for _, l := range splitLines(b) {
					want, name, ok := strings.Cut(l, "  ")
					if !ok {
						continue
					}
					data, err := e.ReadAll(name)
					res := "OK"
					if err != nil || sum(data) != want {
						res, st = "FAILED", 1
					}
					if !o.has("status") && !(o.has("quiet") && res == "OK") {
						fmt.Fprintf(e.Stdout, "%s: %s\n", name, res)
					}
				}
			})
			return st
		}
		return e.Inputs(files, func(name string, b []byte) {
			fmt.Fprintf(e.Stdout, "%s  %s\n", sum(b), name)
		})
	}
}

// exprCmd evaluates expr's arithmetic, comparison, length, substr and
// match operators.
func exprCmd(e *Env, args []string) int {
	a := args[1:]
	p := &exprParser{a: a}
	v, err := p.or()
	if err != nil || p.i < len(a) {
		e.Errf("syntax error")
		return 2
	}
	fmt.Fprintln(e.Stdout, v)
	if v == "" || v == "0" {
		return 1
	}
	return 0
}

type exprParser struct {
	a []string
	i int
}

func (p *exprParser) tok() string {
	if p.i < len(p.a) {
		return p.a[p.i]
	}
	return ""
}

func (p *exprParser) or() (string, error) {
	l, err := p.and()
	for err == nil && p.tok() == "|" {
		p.i++
		var r string
		r, err = p.and()
		if l == "" || l == "0" {
			l = r
		}
	}
	return l, err
}

func (p *exprParser) and() (string, error) {
	l, err := p.cmp()
	for err == nil && p.tok() == "&" {
		p.i++
		var r string
		r, err = p.cmp()
		if l == "" || l == "0" || r == "" || r == "0" {
			l = "0"
		}
	}
	return l, err
}

func (p *exprParser) cmp() (string, error) {
	l, err := p.add()
	for err == nil {
		op := p.tok()
		if op != "=" && op != "!=" && op != "<" && op != ">" && op != "<=" && op != ">=" && op != "==" {
			return l, nil
		}
		p.i++
		var r string
		if r, err = p.add(); err != nil {
			return "", err
		}
		x, e1 := strconv.ParseInt(l, 10, 64)
		y, e2 := strconv.ParseInt(r, 10, 64)
		c := strings.Compare(l, r)
		if e1 == nil && e2 == nil {
			c = 0
			if x < y {
				c = -1
			} else if x > y {
				c = 1
			}
		}
		res := map[string]bool{"=": c == 0, "==": c == 0, "!=": c != 0, "<": c < 0, ">": c > 0, "<=": c <= 0, ">=": c >= 0}[op]
		l = "0"
		if res {
			l = "1"
		}
	}
	return l, err
}

func (p *exprParser) add() (string, error) {
	l, err := p.mul()
	for err == nil && (p.tok() == "+" || p.tok() == "-") {
		op := p.tok()
		p.i++
		var r string
		if r, err = p.mul(); err != nil {
			return "", err
		}
		x, e1 := strconv.ParseInt(l, 10, 64)
		y, e2 := strconv.ParseInt(r, 10, 64)
		if e1 != nil || e2 != nil {
			return "", fmt.Errorf("non-integer argument")
		}
		if op == "+" {
			l = strconv.FormatInt(x+y, 10)
		} else {
			l = strconv.FormatInt(x-y, 10)
		}
	}
	return l, err
}

func (p *exprParser) mul() (string, error) {
	l, err := p.unary()
	for err == nil && (p.tok() == "*" || p.tok() == "/" || p.tok() == "%") {
		op := p.tok()
		p.i++
		var r string
		if r, err = p.unary(); err != nil {
			return "", err
		}
		x, e1 := strconv.ParseInt(l, 10, 64)
		y, e2 := strconv.ParseInt(r, 10, 64)
		if e1 != nil || e2 != nil || (op != "*" && y == 0) {
			return "", fmt.Errorf("bad argument")
		}
		switch op {
		case "*":
			l = strconv.FormatInt(x*y, 10)
		case "/":
			l = strconv.FormatInt(x/y, 10)
		default:
			l = strconv.FormatInt(x%y, 10)
		}
	}
	return l, err
}

func (p *exprParser) unary() (string, error) {
	t := p.tok()
	switch t {
	case "":
		return "", fmt.Errorf("missing argument")
	case "(":
		p.i++
		v, err := p.or()
		if p.tok() != ")" {
			return "", fmt.Errorf("expected )")
		}
		p.i++
		return v, err
	case "length":
		p.i++
		v, err := p.unary()
		return strconv.Itoa(len(v)), err
	case "substr":
		if p.i+3 >= len(p.a)+0 && p.i+3 > len(p.a) {
			return "", fmt.Errorf("missing argument")
		}
		s, pos, n := p.a[p.i+1], p.a[p.i+2], p.a[p.i+3]
		p.i += 4
		x, _ := strconv.Atoi(pos)
		y, _ := strconv.Atoi(n)
		if x < 1 || x > len(s) || y <= 0 {
			return "", nil
		}
		return s[x-1 : min(len(s), x-1+y)], nil
	case "index":
		s, chars := p.a[p.i+1], p.a[p.i+2]
		p.i += 3
		return strconv.Itoa(strings.IndexAny(s, chars) + 1), nil
	case "match":
		p.i++
		s, err := p.unary()
		if err != nil {
			return "", err
		}
		re, err := p.unary()
		if err != nil {
			return "", err
		}
		return exprMatch(s, re), nil
	}
	p.i++
	if p.tok() == ":" {
		p.i++
		re := p.tok()
		p.i++
		return exprMatch(t, re), nil
	}
	return t, nil
}

func exprMatch(s, pat string) string {
	re, err := compileRE("^"+pat, false, false)
	if err != nil {
		return "0"
	}
	m := re.FindStringSubmatch(s)
	if m == nil {
		if re.NumSubexp() > 0 {
			return ""
		}
		return "0"
	}
	if len(m) > 1 {
		return m[1]
	}
	return strconv.Itoa(len(m[0]))
}

func column(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "tnx", vals: "so", long: map[string]bool{"table": false, "separator": true, "output-separator": true},
		alias: map[string]string{"table": "t", "separator": "s", "output-separator": "o"}}, args)
	if !ok {
		return 1
	}
	var rows [][]string
	st := e.Inputs(files, func(_ string, b []byte) {
		for _, l := range splitLines(b) {
			if !o.has("t") {
				rows = append(rows, []string{l})
				continue
			}
			var f []string
			if sep := o.last("s", ""); sep != "" {
				for _, x := range strings.FieldsFunc(l, func(r rune) bool { return strings.ContainsRune(sep, r) }) {
					f = append(f, x)
				}
			} else {
				f = strings.Fields(l)
			}
			if len(f) > 0 {
				rows = append(rows, f)
			}
		}
	})
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	osep := o.last("o", "  ")
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))))
				b.WriteString(osep)
			}
		}
		fmt.Fprintln(e.Stdout, b.String())
	}
	return st
}

func od(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "cbx", vals: "Atjvn", long: map[string]bool{}}, args)
	if !ok {
		return 1
	}
	noAddr := o.last("A", "o") == "n"
	typ := o.last("t", "o2")
	if o.has("c") {
		typ = "c"
	}
	if o.has("x") {
		typ = "x2"
	}
	return e.Inputs(files, func(_ string, b []byte) {
		var sb strings.Builder
		for off := 0; off < len(b); off += 16 {
			chunk := b[off:min(off+16, len(b))]
			if !noAddr {
				fmt.Fprintf(&sb, "%07o", off)
			}
			switch typ {
			case "c":
				for _, c := range chunk {
					switch {
					case c == '\n':
						sb.WriteString("  \\n")
					case c == '\t':
						sb.WriteString("  \\t")
					case c == 0:
						sb.WriteString("  \\0")
					case c == '\r':
						sb.WriteString("  \\r")
					case c == '\v':
						sb.WriteString("  \\v")
					case c == '\f':
						sb.WriteString("  \\f")
					case c == '\b':
						sb.WriteString("  \\b")
					case c == 7:
						sb.WriteString("  \\a")
					case c >= 32 && c < 127:
						fmt.Fprintf(&sb, "   %c", c)
					default:
						fmt.Fprintf(&sb, " %03o", c)
					}
				}
			case "x1":
				for _, c := range chunk {
					fmt.Fprintf(&sb, " %02x", c)
				}
			case "x2":
				for i := 0; i < len(chunk); i += 2 {
					v := uint16(chunk[i])
					if i+1 < len(chunk) {
						v |= uint16(chunk[i+1]) << 8
					}
					fmt.Fprintf(&sb, " %04x", v)
				}
			default:
				for i := 0; i < len(chunk); i += 2 {
					v := uint16(chunk[i])
					if i+1 < len(chunk) {
						v |= uint16(chunk[i+1]) << 8
					}
					fmt.Fprintf(&sb, " %06o", v)
				}
			}
			sb.WriteString("\n")
		}
		if !noAddr {
			fmt.Fprintf(&sb, "%07o\n", len(b))
		}
		fmt.Fprint(e.Stdout, sb.String())
	})
}

func xxd(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "pr", vals: "lc"}, args)
	if !ok {
		return 1
	}
	return e.Inputs(files, func(_ string, b []byte) {
		var sb strings.Builder
		if o.has("r") {
			out, _ := hex.DecodeString(strings.Join(strings.Fields(string(b)), ""))
			e.Stdout.Write(out)
			return
		}
		if o.has("p") {
			s := hex.EncodeToString(b)
			for len(s) > 60 {
				sb.WriteString(s[:60] + "\n")
				s = s[60:]
			}
			if s != "" {
				sb.WriteString(s + "\n")
			}
			fmt.Fprint(e.Stdout, sb.String())
			return
		}
		for off := 0; off < len(b); off += 16 {
			chunk := b[off:min(off+16, len(b))]
			fmt.Fprintf(&sb, "%08x:", off)
			for i := 0; i < 16; i += 2 {
				if i < len(chunk) {
					fmt.Fprintf(&sb, " %02x", chunk[i])
					if i+1 < len(chunk) {
						fmt.Fprintf(&sb, "%02x", chunk[i+1])
					} else {
						sb.WriteString("  ")
					}
				} else {
					sb.WriteString("     ")
				}
			}
			sb.WriteString("  ")
			for _, c := range chunk {
				if c >= 32 && c < 127 {
					sb.WriteByte(c)
				} else {
					sb.WriteByte('.')
				}
			}
			sb.WriteString("\n")
		}
		fmt.Fprint(e.Stdout, sb.String())
	})
}
