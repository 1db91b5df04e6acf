package coreutils

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/nookdev/nook/runtime/host"
)

func init() {
	register("sed", "sed [-nEri] [-e SCRIPT]... [-f FILE] [SCRIPT] [FILE]...", sed)
}

type sedAddr struct {
	kind  byte // 'n' line, '$' last, 'r' regex, '~' first~step, '+' relative (addr2)
	n     int
	step  int
	re    *regexp.Regexp
	empty bool // "//": the last regex used
}

type sedCmd struct {
	a1, a2   *sedAddr
	neg      bool
	name     byte
	text     string
	re       *regexp.Regexp
	reEmpty  bool
	repl     string
	global   bool
	nth      int
	print    bool
	label    string
	end      int // for '{': the index of its '}' in the program
	y        map[rune]rune
	inRange  bool
	rangeEnd int
	wfile    string
}

type sedParser struct {
	s   string
	i   int
	ere bool
}

func (p *sedParser) eof() bool { return p.i >= len(p.s) }
func (p *sedParser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.s[p.i]
}
func (p *sedParser) skipWS() {
	for !p.eof() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// delimited reads up to the unescaped delim; "\delim" becomes delim, and a
// newline escape "\n" is kept for the regex translator.
func (p *sedParser) delimited(delim byte, isRE bool) (string, error) {
	var b strings.Builder
	for !p.eof() {
		c := p.s[p.i]
		if c == '\\' && p.i+1 < len(p.s) {
			n := p.s[p.i+1]
			if n == delim && delim != '&' {
				b.WriteByte(delim)
			} else if n == '\n' && !isRE {
				b.WriteByte('\n')
			} else {
				b.WriteByte('\\')
				b.WriteByte(n)
			}
			p.i += 2
			continue
		}
		if c == '[' && isRE {
			// a bracket expression may hold the delimiter
			j := p.i + 1
			if j < len(p.s) && p.s[j] == '^' {
				j++
			}
			if j < len(p.s) && p.s[j] == ']' {
				j++
			}
			for j < len(p.s) && p.s[j] != ']' {
				j++
			}
			if j < len(p.s) {
				b.WriteString(p.s[p.i : j+1])
				p.i = j + 1
				continue
			}
		}
		if c == delim {
			p.i++
			return b.String(), nil
		}
		b.WriteByte(c)
		p.i++
	}
	return "", fmt.Errorf("unterminated `s' command")
}

func (p *sedParser) regex(delim byte) (*regexp.Regexp, bool, error) {
	src, err := p.delimited(delim, true)
	if err != nil {
		return nil, false, err
	}
	if src == "" {
		return nil, true, nil
	}
	re, err := compileRE(sedBracketEscapes(src), p.ere, false)
	return re, false, err
}

// sedBracketEscapes reads \t, \n, \r, \f, \v and \a inside the bracket
// expressions of a sed regex as the characters they name, as GNU sed
// does before it compiles one ("[ \t]" is a space or a tab); any other
// backslash in brackets stays a backslash.
func sedBracketEscapes(src string) string {
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\\' && i+1 < len(src) {
			b.WriteByte(c)
			b.WriteByte(src[i+1])
			i++
			continue
		}
		if c != '[' {
			b.WriteByte(c)
			continue
		}
		// A bracket expression: "]" first (after an optional "^") is a
		// member; "[:class:]", "[.x.]" and "[=x=]" are read whole.
		b.WriteByte(c)
		j := i + 1
		if j < len(src) && src[j] == '^' {
			b.WriteByte('^')
			j++
		}
		if j < len(src) && src[j] == ']' {
			b.WriteByte(']')
			j++
		}
		for ; j < len(src) && src[j] != ']'; j++ {
			switch d := src[j]; {
			case d == '[' && j+1 < len(src) && strings.IndexByte(":.=", src[j+1]) >= 0:
				end := strings.Index(src[j+2:], string(src[j+1])+"]")
				if end < 0 {
					b.WriteByte(d)
					continue
				}
				b.WriteString(src[j : j+2+end+2])
				j += 2 + end + 1
			case d == '\\' && j+1 < len(src) && strings.IndexByte("tnrfva", src[j+1]) >= 0:
				b.WriteByte(map[byte]byte{'t': '\t', 'n': '\n', 'r': '\r', 'f': '\f', 'v': '\v', 'a': '\a'}[src[j+1]])
				j++
			default:
				b.WriteByte(d)
			}
		}
		if j < len(src) {
			b.WriteByte(']')
		}
		i = j
	}
	return b.String()
}

func (p *sedParser) addr() (*sedAddr, error) {
	c := p.peek()
	switch {
	case c >= '0' && c <= '9':
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		n, _ := strconv.Atoi(p.s[p.i:j])
		p.i = j
		if p.peek() == '~' {
			p.i++
			k := p.i
			for k < len(p.s) && p.s[k] >= '0' && p.s[k] <= '9' {
				k++
			}
			step, _ := strconv.Atoi(p.s[p.i:k])
			p.i = k
			return &sedAddr{kind: '~', n: n, step: step}, nil
		}
		return &sedAddr{kind: 'n', n: n}, nil
	case c == '$':
		p.i++
		return &sedAddr{kind: '$'}, nil
	case c == '/' || c == '\\':
		delim := byte('/')
		if c == '\\' {
			p.i++
			delim = p.peek()
		}
		p.i++
		re, empty, err := p.regex(delim)
		if err != nil {
			return nil, err
		}
		a := &sedAddr{kind: 'r', re: re, empty: empty}
		for p.peek() == 'I' {
			p.i++
			if re != nil {
				a.re = regexp.MustCompile("(?i)" + re.String())
			}
		}
		return a, nil
	}
	return nil, nil
}

func (p *sedParser) text() string {
	// a\ text, a text, a\<newline>text
	p.skipWS()
	if p.peek() == '\\' {
		p.i++
		if p.peek() == '\n' {
			p.i++
		}
	}
	var b strings.Builder
	for !p.eof() && p.s[p.i] != '\n' {
		c := p.s[p.i]
		if c == '\\' && p.i+1 < len(p.s) {
			p.i++
			b.WriteByte(p.s[p.i])
			p.i++
			continue
		}
		b.WriteByte(c)
		p.i++
	}
	return b.String()
}

func (p *sedParser) label() string {
	p.skipWS()
	j := p.i
	for j < len(p.s) && p.s[j] != '\n' && p.s[j] != ';' && p.s[j] != '}' {
		j++
	}
	l := strings.TrimSpace(p.s[p.i:j])
	p.i = j
	return l
}

// parse compiles the script into one flat program: a block '{' is a
// command that jumps past its matching '}' when its address does not
// select the line, so neither parsing nor running recurses on the script
// (a script of a million '{' is input too).
func (p *sedParser) parse() ([]*sedCmd, error) {
	var cmds []*sedCmd
	var open []int // indices of the '{' not yet closed
	for {
		for !p.eof() && strings.IndexByte(" \t\n;", p.peek()) >= 0 {
			p.i++
		}
		if p.eof() {
			if len(open) > 0 {
				return nil, fmt.Errorf("unmatched `{'")
			}
			return cmds, nil
		}
		if p.peek() == '}' {
			if len(open) == 0 {
				return nil, fmt.Errorf("unexpected `}'")
			}
			p.i++
			cmds[open[len(open)-1]].end = len(cmds)
			open = open[:len(open)-1]
			cmds = append(cmds, &sedCmd{name: '}'})
			continue
		}
		if p.peek() == '#' {
			for !p.eof() && p.peek() != '\n' {
				p.i++
			}
			continue
		}
		c := &sedCmd{}
		var err error
		if c.a1, err = p.addr(); err != nil {
			return nil, err
		}
		if c.a1 != nil && p.peek() == ',' {
			p.i++
			if p.peek() == '+' {
				p.i++
				a, _ := p.addr()
				if a == nil {
					return nil, fmt.Errorf("expected address after ,+")
				}
				c.a2 = &sedAddr{kind: '+', n: a.n}
			} else if c.a2, err = p.addr(); err != nil || c.a2 == nil {
				return nil, fmt.Errorf("unexpected `,'")
			}
		}
		p.skipWS()
		for p.peek() == '!' {
			c.neg = true
			p.i++
			p.skipWS()
		}
		if p.eof() {
			return nil, fmt.Errorf("missing command")
		}
		c.name = p.s[p.i]
		p.i++
		switch c.name {
		case '{':
			open = append(open, len(cmds))
		case 's':
			delim := p.peek()
			p.i++
			if c.re, c.reEmpty, err = p.regex(delim); err != nil {
				return nil, err
			}
			if c.repl, err = p.delimited(delim, false); err != nil {
				return nil, err
			}
			icase := false
			for !p.eof() {
				f := p.peek()
				switch {
				case f == 'g':
					c.global = true
				case f == 'p':
					c.print = true
				case f == 'i' || f == 'I':
					icase = true
				case f >= '0' && f <= '9':
					j := p.i
					for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
						j++
					}
					c.nth, _ = strconv.Atoi(p.s[p.i:j])
					p.i = j - 1
				case f == 'w':
					p.i++
					c.wfile = p.label()
					p.i--
				default:
					goto done
				}
				p.i++
			}
		done:
			if icase && c.re != nil {
				c.re = regexp.MustCompile("(?i)" + c.re.String())
			}
		case 'y':
			delim := p.peek()
			p.i++
			src, err := p.delimited(delim, false)
			if err != nil {
				return nil, err
			}
			dst, err := p.delimited(delim, false)
			if err != nil {
				return nil, err
			}
			sr, dr := []rune(unescapeTr(src)), []rune(unescapeTr(dst))
			if len(sr) != len(dr) {
				return nil, fmt.Errorf("strings for `y' command are different lengths")
			}
			c.y = map[rune]rune{}
			for i := range sr {
				c.y[sr[i]] = dr[i]
			}
		case 'a', 'i', 'c':
			c.text = p.text()
		case 'b', 't', 'T', ':':
			c.label = p.label()
			if c.name == ':' && c.label == "" {
				return nil, fmt.Errorf("\":\" lacks a label")
			}
		case 'q', 'Q', 'l':
			p.skipWS()
			j := p.i
			for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
				j++
			}
			c.nth, _ = strconv.Atoi(p.s[p.i:j])
			p.i = j
		case 'r', 'R', 'w', 'W':
			c.text = p.label()
		case 'p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', '=', 'z', 'F':
		default:
			return nil, fmt.Errorf("unknown command: `%c'", c.name)
		}
		cmds = append(cmds, c)
	}
}

type sedState struct {
	e        *Env
	quiet    bool
	lines    []string
	idx      int // index of the next line to read
	lineNo   int
	hold     string
	out      *strings.Builder
	lastRE   *regexp.Regexp
	appendQ  []string
	subst    bool
	quit     bool
	exitCode int
	labels   map[string]int // label → index of its ':' in the program
	err      error          // a limit reached or the context's end: the run stops
	w        io.Writer      // where out is flushed between cycles (nil: kept whole, for -i)
	lastLine bool
}

func sed(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "nErsuz", vals: "ef", long: map[string]bool{"quiet": false, "silent": false, "expression": true, "file": true,
		"in-place-suffix": true, "regexp-extended": false, "separate": false, "posix": false, "debug": false},
		alias: map[string]string{"quiet": "n", "silent": "n", "expression": "e", "file": "f", "regexp-extended": "E", "separate": "s"}}, preSed(args))
	if !ok {
		return 1
	}
	inPlace, suffix := false, ""
	for _, v := range o["in-place-suffix"] {
		inPlace, suffix = true, v
	}
	var script []string
	script = append(script, o["e"]...)
	for _, f := range o["f"] {
		b, err := e.ReadAll(f)
		if err != nil {
			e.Errf("couldn't open file %s: %s", f, textOf(err))
			return 1
		}
		script = append(script, strings.TrimSuffix(string(b), "\n"))
	}
	if len(script) == 0 {
		if len(ops) == 0 {
			fmt.Fprintln(e.Stderr, "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...")
			return 1
		}
		script = []string{ops[0]}
		ops = ops[1:]
	}
	p := &sedParser{s: strings.Join(script, "\n"), ere: o.has("E") || o.has("r")}
	cmds, err := p.parse()
	if err != nil {
		e.Errf("-e expression #1, char %d: %s", p.i, err)
		return 1
	}
	labels := map[string]int{}
	for i, c := range cmds {
		if c.name == ':' {
			if _, dup := labels[c.label]; !dup {
				labels[c.label] = i
			}
		}
	}
	st := &sedState{e: e, quiet: o.has("n"), labels: labels}
	if inPlace {
		if len(ops) == 0 {
			e.Errf("no input files")
			return 1
		}
		status := 0
		for _, f := range ops {
			b, err := e.ReadAll(f)
			if err != nil {
				e.Errf("can't read %s: %s", f, textOf(err))
				status = 2
				continue
			}
			st.reset(b)
			st.run(cmds)
			if st.err != nil {
				return st.fail()
			}
			if suffix != "" {
				bak := f + suffix
				if strings.Contains(suffix, "*") {
					bak = strings.ReplaceAll(suffix, "*", baseOf(f))
				}
				if err := e.FS.WriteFile(e.Ctx, e.Abs(bak), b, "w"); err != nil {
					e.FileErr(bak, err)
					return 4
				}
			}
			if err := e.FS.WriteFile(e.Ctx, e.Abs(f), []byte(st.out.String()), "w"); err != nil {
				e.Errf("couldn't write %s: %s", f, textOf(err))
				return 4
			}
			if st.quit {
				break
			}
		}
		if status != 0 {
			return status
		}
		return st.exitCode
	}
	var all []byte
	status := e.Inputs(ops, func(_ string, b []byte) {
		if len(all) > 0 && all[len(all)-1] != '\n' {
			all = append(all, '\n')
		}
		all = append(all, b...)
	})
	st.reset(all)
	st.w = e.Stdout
	st.run(cmds)
	if st.err != nil {
		return st.fail()
	}
	io.WriteString(e.Stdout, st.out.String())
	if status != 0 {
		return 2
	}
	return st.exitCode
}

// preSed turns "-i.bak" / "-i" into the "i" option with its suffix, since
// -i takes an optional attached value.
func preSed(args []string) []string {
	out := []string{args[0]}
	for i, a := range args[1:] {
		if a == "--" {
			out = append(out, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "-i") && !strings.HasPrefix(a, "--") {
			out = append(out, "--in-place-suffix="+a[2:])
			continue
		}
		if strings.HasPrefix(a, "--in-place=") {
			out = append(out, "--in-place-suffix="+a[len("--in-place="):])
			continue
		}
		// "-ni", "-Ei": split the i off
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "i") && !strings.ContainsAny(a[1:len(a)-1], "ef") {
			out = append(out, a[:len(a)-1], "--in-place-suffix=")
			continue
		}
		out = append(out, a)
	}
	return out
}

func (st *sedState) reset(b []byte) {
	st.lines = splitLines(b)
	st.lastLine = len(b) > 0 && b[len(b)-1] != '\n'
	st.idx, st.lineNo = 0, 0
	st.out = &strings.Builder{}
	st.hold = ""
	st.quit = false
}

func (st *sedState) matchAddr(a *sedAddr, ps string) bool {
	switch a.kind {
	case 'n':
		return st.lineNo == a.n
	case '$':
		return st.idx >= len(st.lines)
	case '~':
		if a.step <= 0 {
			return st.lineNo == a.n
		}
		return st.lineNo >= a.n && (st.lineNo-a.n)%a.step == 0
	case 'r':
		re := a.re
		if a.empty {
			re = st.lastRE
		} else {
			st.lastRE = re
		}
		return re != nil && re.MatchString(ps)
	}
	return false
}

func (st *sedState) selected(c *sedCmd, ps string) bool {
	if c.a1 == nil {
		return true != c.neg
	}
	if c.a2 == nil {
		return st.matchAddr(c.a1, ps) != c.neg
	}
	if c.inRange {
		end := false
		switch c.a2.kind {
		case 'n':
			end = st.lineNo >= c.a2.n
			if st.lineNo > c.a2.n {
				c.inRange = false
				return st.selected(c, ps)
			}
		case '+':
			end = st.lineNo >= c.rangeEnd
		default:
			end = st.matchAddr(c.a2, ps)
		}
		if end {
			c.inRange = false
		}
		return true != c.neg
	}
	if st.matchAddr(c.a1, ps) {
		switch c.a2.kind {
		case 'n':
			c.inRange = c.a2.n > st.lineNo
		case '+':
			c.rangeEnd = st.lineNo + c.a2.n
			c.inRange = c.a2.n > 0
		case '$':
			c.inRange = st.idx < len(st.lines)
		default:
			c.inRange = true
		}
		return true != c.neg
	}
	return false != c.neg
}

func (st *sedState) emit(s string, last bool) {
	st.out.WriteString(s)
	if !(last && st.lastLine && st.idx >= len(st.lines)) {
		st.out.WriteByte('\n')
	}
}

// fail reports the limit that stopped the script (which ends the run) and
// returns sed's status for it.
func (st *sedState) fail() int {
	var le *host.LimitError
	if errors.As(st.err, &le) {
		if st.e.Stop != nil {
			st.e.Stop(le)
		}
		st.e.Errf("%v", le)
		return 4
	}
	return 1
}

func (st *sedState) run(cmds []*sedCmd) {
	for st.idx < len(st.lines) && !st.quit {
		if st.err = st.check(""); st.err != nil {
			return
		}
		ps := st.lines[st.idx]
		st.idx++
		st.lineNo++
		st.subst = false
		ps, del := st.exec(cmds, ps)
		if !del && !st.quiet {
			st.emit(ps, true)
		}
		for _, a := range st.appendQ {
			st.out.WriteString(a)
		}
		st.appendQ = st.appendQ[:0]
		if st.w != nil && st.out.Len() >= 64<<10 {
			io.WriteString(st.w, st.out.String())
			st.out.Reset()
		}
	}
}

// exec runs cmds on the pattern space; it returns the pattern space and
// whether it was deleted (no autoprint).
func (st *sedState) exec(cmds []*sedCmd, ps string) (string, bool) {
	for i := 0; i < len(cmds); i++ {
		c := cmds[i]
		if c.name == ':' || c.name == '}' {
			continue
		}
		if !st.selected(c, ps) {
			if c.name == '{' {
				i = c.end
			}
			continue
		}
		switch c.name {
		case '{':
		case 's':
			re := c.re
			if c.reEmpty {
				re = st.lastRE
			} else {
				st.lastRE = re
			}
			if re == nil {
				continue
			}
			// The result is built at most up to what the limit leaves
			// (the pattern space is not doubled past it, then checked).
			room := int64(-1)
			if st.e.MaxBytes > 0 {
				room = max(st.e.MaxBytes-int64(len(st.hold))-int64(st.out.Len()), 0)
			}
			if res, ok := substitute(re, ps, c.repl, c.global, c.nth, room); ok {
				ps = res
				st.subst = true
				if st.err = st.check(ps); st.err != nil {
					st.quit = true
					return ps, true
				}
				if c.print {
					st.emit(ps, false)
				}
				if c.wfile != "" {
					st.e.FS.WriteFile(st.e.Ctx, st.e.Abs(c.wfile), []byte(ps+"\n"), "a")
				}
			}
		case 'p':
			st.emit(ps, false)
		case 'P':
			l, _, _ := strings.Cut(ps, "\n")
			st.emit(l, false)
		case 'd':
			return ps, true
		case 'D':
			if j := strings.IndexByte(ps, '\n'); j >= 0 {
				st.idx--
				st.lines[st.idx] = ps[j+1:]
				st.lineNo--
				return ps, true
			}
			return ps, true
		case 'q':
			st.quit = true
			st.exitCode = c.nth
			return ps, false
		case 'Q':
			st.quit = true
			st.exitCode = c.nth
			return ps, true
		case 'a':
			st.appendQ = append(st.appendQ, c.text+"\n")
		case 'i':
			st.out.WriteString(c.text + "\n")
		case 'c':
			if c.a2 == nil || !c.inRange {
				st.out.WriteString(c.text + "\n")
			}
			return ps, true
		case 'y':
			var b strings.Builder
			for _, r := range ps {
				if m, ok := c.y[r]; ok {
					r = m
				}
				b.WriteRune(r)
			}
			ps = b.String()
		case '=':
			fmt.Fprintf(st.out, "%d\n", st.lineNo)
		case 'n':
			if st.idx >= len(st.lines) {
				if !st.quiet {
					st.emit(ps, true)
				}
				st.quit = true
				return ps, true
			}
			if !st.quiet {
				st.emit(ps, false)
			}
			ps = st.lines[st.idx]
			st.idx++
			st.lineNo++
		case 'N':
			if st.idx >= len(st.lines) {
				if !st.quiet {
					st.emit(ps, true)
				}
				st.quit = true
				return ps, true
			}
			ps += "\n" + st.lines[st.idx]
			st.idx++
			st.lineNo++
		case 'g':
			ps = st.hold
		case 'G':
			ps += "\n" + st.hold
			if st.err = st.check(ps); st.err != nil {
				st.quit = true
				return ps, true
			}
		case 'h':
			st.hold = ps
		case 'H':
			st.hold += "\n" + ps
			if st.err = st.check(ps); st.err != nil {
				st.quit = true
				return ps, true
			}
		case 'x':
			ps, st.hold = st.hold, ps
		case 'z':
			ps = ""
		case 'F':
			st.out.WriteString("-\n")
		case 'l':
			st.out.WriteString(strconv.Quote(ps)[1:len(strconv.Quote(ps))-1] + "$\n")
		case 'r':
			if b, err := st.e.ReadAll(c.text); err == nil {
				s := string(b)
				if s != "" && !strings.HasSuffix(s, "\n") {
					s += "\n"
				}
				st.appendQ = append(st.appendQ, s)
			}
		case 'w':
			st.e.FS.WriteFile(st.e.Ctx, st.e.Abs(c.text), []byte(ps+"\n"), "a")
		case 'b', 't', 'T':
			jump := c.name == 'b' || (c.name == 't' && st.subst) || (c.name == 'T' && !st.subst)
			if c.name != 'b' && jump {
				st.subst = false
			}
			if !jump {
				continue
			}
			if c.label == "" {
				return ps, false
			}
			target, ok := st.labels[c.label]
			if !ok {
				return ps, false
			}
			// A jump is a loop: it may run forever (GNU sed does), so it
			// stops at the run's end, and what it builds at MaxAllocBytes.
			if st.err = st.check(ps); st.err != nil {
				st.quit = true
				return ps, true
			}
			i = target
		}
	}
	return ps, false
}

// check ends a cycle that ran past the run's context or whose buffers
// (pattern space, hold space, pending output) passed MaxAllocBytes.
func (st *sedState) check(ps string) error {
	if err := st.e.Ctx.Err(); err != nil {
		return err
	}
	n := int64(len(ps)) + int64(len(st.hold)) + int64(st.out.Len())
	if max := st.e.MaxBytes; max > 0 && n > max {
		return &host.LimitError{Limit: "MaxAllocBytes", Max: max,
			What: fmt.Sprintf("sed: pattern space, hold space and output reaching %d bytes", n)}
	}
	return nil
}

// substitute replaces the matches of re in s: all when global, else the
// nth (default first). It reports whether anything was replaced.
//
// The result stops growing past max bytes (max < 0: no bound), so the
// caller's check sees it too large without it having been built whole.
func substitute(re *regexp.Regexp, s, repl string, global bool, nth int, max int64) (string, bool) {
	if nth == 0 {
		nth = 1
	}
	n := -1
	if !global {
		n = nth
	}
	matches := re.FindAllStringSubmatchIndex(s, n)
	if len(matches) < nth {
		return s, false
	}
	var b strings.Builder
	full := func() bool { return max >= 0 && int64(b.Len()) > max }
	last := 0
	for k, m := range matches {
		if k+1 < nth {
			continue
		}
		b.WriteString(s[last:m[0]])
		expandRepl(&b, repl, s, m, max)
		last = m[1]
		if full() {
			return b.String(), true
		}
		if !global {
			break
		}
	}
	tail := s[last:]
	if max >= 0 && int64(b.Len())+int64(len(tail)) > max+1 {
		tail = tail[:max+1-int64(b.Len())]
	}
	b.WriteString(tail)
	return b.String(), true
}

// expandRepl writes the replacement of match m to b, stopping once b
// holds more than max bytes (max < 0: no bound).
func expandRepl(b *strings.Builder, repl, s string, m []int, max int64) {
	caseMode := byte(0) // 'U', 'L'
	oneShot := byte(0)
	write := func(t string) {
		if oneShot != 0 && t != "" {
			r := []rune(t)
			if oneShot == 'u' {
				r[0] = []rune(strings.ToUpper(string(r[0])))[0]
			} else {
				r[0] = []rune(strings.ToLower(string(r[0])))[0]
			}
			t = string(r)
			oneShot = 0
		}
		switch caseMode {
		case 'U':
			t = strings.ToUpper(t)
		case 'L':
			t = strings.ToLower(t)
		}
		if rest := max + 1 - int64(b.Len()); max >= 0 && int64(len(t)) > rest {
			if rest < 0 {
				rest = 0
			}
			t = t[:rest]
		}
		b.WriteString(t)
	}
	group := func(n int) string {
		if 2*n+1 < len(m) && m[2*n] >= 0 {
			return s[m[2*n]:m[2*n+1]]
		}
		return ""
	}
	for i := 0; i < len(repl) && (max < 0 || int64(b.Len()) <= max); i++ {
		c := repl[i]
		switch {
		case c == '&':
			write(group(0))
		case c == '\\' && i+1 < len(repl):
			i++
			n := repl[i]
			switch {
			case n >= '0' && n <= '9':
				write(group(int(n - '0')))
			case n == 'n':
				write("\n")
			case n == 't':
				write("\t")
			case n == 'U' || n == 'L':
				caseMode = n
			case n == 'E':
				caseMode = 0
			case n == 'u' || n == 'l':
				oneShot = n
			default:
				write(string(n))
			}
		default:
			write(string(c))
		}
	}
}
