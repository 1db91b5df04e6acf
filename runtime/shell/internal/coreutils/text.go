package coreutils

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nookdev/nook/internal/mvsh/expand"
)

func init() {
	register("echo", "echo [-neE] [STRING]...", echo)
	register("printf", "printf FORMAT [ARGUMENT]...", printf)
	register("head", "head [-n N] [-c N] [-qv] [FILE]...", head)
	register("tail", "tail [-n [+]N] [-c [+]N] [-qv] [FILE]...", tail)
	register("wc", "wc [-lwcmL] [FILE]...", wc)
	register("tee", "tee [-a] [FILE]...", tee)
	register("nl", "nl [-ba|-bt] [-w N] [-s SEP] [FILE]...", nl)
	register("rev", "rev [FILE]...", rev)
	register("tac", "tac [FILE]...", tac)
	register("yes", "yes [STRING]...", yes)
}

// unescape interprets the backslash escapes of echo -e and printf %b.
func unescape(s string) string {
	out, _, _ := expand.Format(nil, "%b", []string{s})
	return out
}

func echo(e *Env, args []string) int {
	a := args[1:]
	newline, esc := true, false
loop:
	for len(a) > 0 && len(a[0]) > 1 && a[0][0] == '-' {
		for _, c := range a[0][1:] {
			if c != 'n' && c != 'e' && c != 'E' {
				break loop
			}
		}
		for _, c := range a[0][1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				esc = true
			case 'E':
				esc = false
			}
		}
		a = a[1:]
	}
	s := strings.Join(a, " ")
	if esc {
		if i := strings.Index(s, `\c`); i >= 0 {
			s, newline = s[:i], false
		}
		s = unescape(s)
	}
	if newline {
		s += "\n"
	}
	io.WriteString(e.Stdout, s)
	return 0
}

func printf(e *Env, args []string) int {
	if len(args) < 2 {
		e.Errf("usage: printf format [arguments]")
		return 2
	}
	a := args[1:]
	if len(a) > 0 && a[0] == "--" {
		a = a[1:]
	}
	if len(a) == 0 {
		e.Errf("usage: printf format [arguments]")
		return 2
	}
	format, rest := unescapeC(a[0], true), a[1:]
	var b strings.Builder
	for {
		vals := make([]any, len(rest))
		for i, r := range rest {
			vals[i] = r
		}
		s, n, stop := formatShell(format, vals)
		b.WriteString(s)
		if stop || n <= 0 || n >= len(rest) {
			break
		}
		rest = rest[n:]
	}
	io.WriteString(e.Stdout, b.String())
	return 0
}

// count parses a head/tail count: N, -N, +N, with K/M suffixes.
func parseCount(s string) (n int64, plus, neg bool, ok bool) {
	if strings.HasPrefix(s, "+") {
		plus, s = true, s[1:]
	} else if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	}
	mult := int64(1)
	for suf, m := range map[string]int64{"K": 1024, "k": 1024, "M": 1 << 20, "G": 1 << 30, "KB": 1000, "MB": 1000 * 1000, "b": 512} {
		if strings.HasSuffix(s, suf) && len(s) > len(suf) {
			if _, err := strconv.ParseInt(s[:len(s)-len(suf)], 10, 64); err == nil {
				s, mult = s[:len(s)-len(suf)], m
				break
			}
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, false, false, false
	}
	return v * mult, plus, neg, true
}

func head(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "qvz", vals: "nc", numeric: 'n', long: map[string]bool{"lines": true, "bytes": true, "quiet": false, "silent": false, "verbose": false},
		alias: map[string]string{"lines": "n", "bytes": "c", "quiet": "q", "silent": "q", "verbose": "v"}}, args)
	if !ok {
		return 1
	}
	byBytes := o.has("c")
	spec := o.last("n", "10")
	if byBytes {
		spec = o.last("c", "")
	}
	n, _, neg, ok := parseCount(spec)
	if !ok {
		if byBytes {
			e.Errf("invalid number of bytes: '%s'", spec)
		} else {
			e.Errf("invalid number of lines: '%s'", spec)
		}
		return 1
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	for i, f := range files {
		fileHeader(w, o, files, i)
		r, err := e.Open(f)
		if err != nil {
			e.Errf("cannot open '%s' for reading: %s", f, textOf(err))
			status = 1
			continue
		}
		switch {
		case byBytes && !neg:
			io.Copy(w, io.LimitReader(r, n))
		case byBytes:
			b, _ := io.ReadAll(r)
			if int64(len(b)) > n {
				w.Write(b[:int64(len(b))-n])
			}
		case !neg:
			br := bufio.NewReader(r)
			for k := int64(0); k < n; k++ {
				line, err := br.ReadString('\n')
				w.WriteString(line)
				if err != nil {
					break
				}
			}
		default:
			b, _ := io.ReadAll(r)
			lines := splitKeep(b)
			if int64(len(lines)) > n {
				for _, l := range lines[:int64(len(lines))-n] {
					w.WriteString(l)
				}
			}
		}
		r.Close()
	}
	return status
}

// splitKeep splits after each newline, keeping it.
func splitKeep(b []byte) []string {
	var out []string
	s := string(b)
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

func tail(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "qvfFrz", vals: "ncs", numeric: 'n', long: map[string]bool{"lines": true, "bytes": true, "quiet": false, "verbose": false, "follow": false},
		alias: map[string]string{"lines": "n", "bytes": "c", "quiet": "q", "verbose": "v", "follow": "f"}}, args)
	if !ok {
		return 1
	}
	byBytes := o.has("c")
	spec := o.last("n", "10")
	if byBytes {
		spec = o.last("c", "")
	}
	n, plus, _, ok := parseCount(spec)
	if !ok {
		e.Errf("invalid number of lines: '%s'", spec)
		return 1
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	for i, f := range files {
		fileHeader(w, o, files, i)
		b, err := e.ReadAll(f)
		if err != nil {
			e.Errf("cannot open '%s' for reading: %s", f, textOf(err))
			status = 1
			continue
		}
		if byBytes {
			switch {
			case plus:
				if n > 0 && n-1 < int64(len(b)) {
					w.Write(b[n-1:])
				} else if n == 0 {
					w.Write(b)
				}
			case n < int64(len(b)):
				w.Write(b[int64(len(b))-n:])
			default:
				w.Write(b)
			}
			continue
		}
		lines := splitKeep(b)
		if o.has("r") {
			start := 0
			if int64(len(lines)) > n {
				start = len(lines) - int(n)
			}
			for k := len(lines) - 1; k >= start; k-- {
				w.WriteString(strings.TrimSuffix(lines[k], "\n") + "\n")
			}
			continue
		}
		switch {
		case plus:
			if n == 0 {
				n = 1
			}
			if n-1 < int64(len(lines)) {
				for _, l := range lines[n-1:] {
					w.WriteString(l)
				}
			}
		default:
			start := 0
			if int64(len(lines)) > n {
				start = len(lines) - int(n)
			}
			for _, l := range lines[start:] {
				w.WriteString(l)
			}
		}
	}
	return status
}

func wc(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "lwcmL", long: map[string]bool{"lines": false, "words": false, "bytes": false, "chars": false, "max-line-length": false},
		alias: map[string]string{"lines": "l", "words": "w", "bytes": "c", "chars": "m", "max-line-length": "L"}}, args)
	if !ok {
		return 1
	}
	showL, showW, showC, showM, showLL := o.has("l"), o.has("w"), o.has("c"), o.has("m"), o.has("L")
	if !showL && !showW && !showC && !showM && !showLL {
		showL, showW, showC = true, true, true
	}
	type counts struct{ l, w, c, m, ll int64 }
	var rows []counts
	var names []string
	var total counts
	stdinOnly := len(files) == 0
	status := e.Inputs(files, func(name string, b []byte) {
		var c counts
		c.c = int64(len(b))
		c.l = int64(bytes.Count(b, []byte{'\n'}))
		c.w = int64(len(bytes.Fields(b)))
		c.m = int64(utf8.RuneCount(b))
		for _, l := range bytes.Split(b, []byte{'\n'}) {
			if n := int64(utf8.RuneCount(l)); n > c.ll {
				c.ll = n
			}
		}
		rows = append(rows, c)
		names = append(names, name)
		total.l += c.l
		total.w += c.w
		total.c += c.c
		total.m += c.m
		total.ll = max(total.ll, c.ll)
	})
	if len(files) > 1 {
		rows = append(rows, total)
		names = append(names, "total")
	}
	// GNU pads every column to the width of the largest number, at least
	// 7 when reading standard input and more than one column is shown.
	ncol := 0
	for _, s := range []bool{showL, showW, showC, showM, showLL} {
		if s {
			ncol++
		}
	}
	width := 1
	if ncol > 1 || len(rows) > 1 {
		width = len(strconv.FormatInt(max(total.c, total.l, total.w, total.m, total.ll), 10))
		if stdinOnly && ncol > 1 {
			width = max(width, 7)
		}
	}
	if len(files) > 1 {
		width = len(strconv.FormatInt(max(total.c, total.l, total.w, total.m, total.ll), 10))
	}
	for i, c := range rows {
		var parts []string
		add := func(show bool, v int64) {
			if show {
				parts = append(parts, fmt.Sprintf("%*d", width, v))
			}
		}
		add(showL, c.l)
		add(showW, c.w)
		add(showM, c.m)
		add(showC, c.c)
		add(showLL, c.ll)
		line := strings.Join(parts, " ")
		if names[i] != "-" || !stdinOnly {
			if names[i] != "-" {
				line += " " + names[i]
			} else {
				line += " -"
			}
		}
		fmt.Fprintln(e.Stdout, line)
	}
	return status
}

func tee(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "ai", long: map[string]bool{"append": false}, alias: map[string]string{"append": "a"}}, args)
	if !ok {
		return 1
	}
	ws := []io.Writer{e.Stdout}
	var closers []io.Closer
	status := 0
	for _, f := range files {
		w, err := e.FS.Create(e.Ctx, e.Abs(f), o.has("a"), false)
		if err != nil {
			e.FileErr(f, err)
			status = 1
			continue
		}
		ws = append(ws, w)
		closers = append(closers, w)
	}
	if _, err := io.Copy(io.MultiWriter(ws...), e.Stdin); err != nil {
		status = 1
	}
	for _, c := range closers {
		if err := c.Close(); err != nil {
			e.Errf("%s", textOf(err))
			status = 1
		}
	}
	return status
}

func nl(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{vals: "bwsvi", long: map[string]bool{"body-numbering": true, "number-width": true, "number-separator": true},
		alias: map[string]string{"body-numbering": "b", "number-width": "w", "number-separator": "s"}}, args)
	if !ok {
		return 1
	}
	style := o.last("b", "t")
	width, _ := strconv.Atoi(o.last("w", "6"))
	sep := o.last("s", "\t")
	n, _ := strconv.Atoi(o.last("v", "1"))
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	return e.Inputs(files, func(_ string, b []byte) {
		for _, l := range splitLines(b) {
			if style == "a" || (style == "t" && l != "") {
				fmt.Fprintf(w, "%*d%s%s\n", width, n, sep, l)
				n++
			} else {
				fmt.Fprintf(w, "%*s%s\n", width+len(sep), "", l)
			}
		}
	})
}

func rev(e *Env, args []string) int {
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	return e.Inputs(args[1:], func(_ string, b []byte) {
		for _, l := range splitLines(b) {
			r := []rune(l)
			for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
				r[i], r[j] = r[j], r[i]
			}
			w.WriteString(string(r))
			w.WriteString("\n")
		}
	})
}

func tac(e *Env, args []string) int {
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	return e.Inputs(args[1:], func(_ string, b []byte) {
		lines := splitLines(b)
		for i := len(lines) - 1; i >= 0; i-- {
			w.WriteString(lines[i])
			w.WriteString("\n")
		}
	})
}

func yes(e *Env, args []string) int {
	s := "y"
	if len(args) > 1 {
		s = strings.Join(args[1:], " ")
	}
	line := []byte(strings.Repeat(s+"\n", max(1, 8192/(len(s)+1))))
	for e.Ctx.Err() == nil {
		if _, err := e.Stdout.Write(line); err != nil {
			return 0
		}
	}
	return 1
}

func init() {
	register("paste", "paste [-s] [-d LIST] FILE...", paste)
}

func paste(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "sz", vals: "d", long: map[string]bool{"serial": false, "delimiters": true},
		alias: map[string]string{"serial": "s", "delimiters": "d"}}, args)
	if !ok {
		return 1
	}
	delims := []rune(unescapeTr(o.last("d", "\t")))
	if len(delims) == 0 {
		delims = []rune{0}
	}
	d := func(i int) string {
		r := delims[i%len(delims)]
		if r == 0 {
			return ""
		}
		return string(r)
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	var cols [][]string
	st := 0
	for _, f := range files {
		b, err := e.ReadAll(f)
		if err != nil {
			e.FileErr(f, err)
			st = 1
			continue
		}
		cols = append(cols, splitLines(b))
	}
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	if o.has("s") {
		for _, c := range cols {
			for i, l := range c {
				if i > 0 {
					w.WriteString(d(i - 1))
				}
				w.WriteString(l)
			}
			w.WriteString("\n")
		}
		return st
	}
	rows := 0
	for _, c := range cols {
		rows = max(rows, len(c))
	}
	for r := 0; r < rows; r++ {
		for i, c := range cols {
			if i > 0 {
				w.WriteString(d(i - 1))
			}
			if r < len(c) {
				w.WriteString(c[r])
			}
		}
		w.WriteString("\n")
	}
	return st
}

// fileHeader writes head's and tail's "==> NAME <==" line before file i,
// when there are several files (unless -q) or -v asks for it.
func fileHeader(w *bufio.Writer, o opts, files []string, i int) {
	if (len(files) <= 1 || o.has("q")) && !o.has("v") {
		return
	}
	if i > 0 {
		w.WriteString("\n")
	}
	name := files[i]
	if name == "-" {
		name = "standard input"
	}
	fmt.Fprintf(w, "==> %s <==\n", name)
}
