package coreutils

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Commands that reshape text: fold, expand, unexpand, strings, shuf,
// split, truncate, numfmt, factor.

func init() {
	register("fold", "fold [-bs] [-w WIDTH] [FILE]...", fold)
	register("expand", "expand [-i] [-t N|LIST] [FILE]...", expandCmd)
	register("unexpand", "unexpand [-a] [--first-only] [-t N|LIST] [FILE]...", unexpand)
	register("strings", "strings [-a] [-n MIN] [-t o|d|x] [FILE]...", stringsCmd)
	register("shuf", "shuf [-n COUNT] [-r] [-z] [FILE]\n  or:  shuf -e [OPTION]... [ARG]...\n  or:  shuf -i LO-HI [OPTION]...\nThe order comes from the run's journaled randomness, so a replay shuffles the same way.", shuf)
	register("split", "split [-l LINES | -b SIZE | -n CHUNKS] [-d] [-a LEN] [--additional-suffix=SUF] [FILE [PREFIX]]", split)
	register("truncate", "truncate [-c] (-s [+-<>/%]SIZE | -r RFILE) FILE...", truncate)
	register("numfmt", "numfmt [--from=si|iec|iec-i|auto] [--to=si|iec|iec-i] [--suffix=S] [--padding=N] [--field=N] [-d DELIM] [--header[=N]] [NUMBER]...", numfmt)
	register("factor", "factor [NUMBER]...", factor)
}

func fold(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "bs", vals: "w", numeric: 'w', long: map[string]bool{"bytes": false, "spaces": false, "width": true},
		alias: map[string]string{"bytes": "b", "spaces": "s", "width": "w"}}, args)
	if !ok {
		return 1
	}
	width, err := strconv.Atoi(o.last("w", "80"))
	if err != nil || width < 1 {
		e.Errf("invalid number of columns: '%s'", o.last("w", ""))
		return 1
	}
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	return e.Inputs(files, func(_ string, b []byte) {
		for _, l := range splitKeep(b) {
			nl := strings.HasSuffix(l, "\n")
			l = strings.TrimSuffix(l, "\n")
			for {
				cut, col := 0, 0
				for cut < len(l) {
					c := l[cut]
					adv := 1
					switch {
					case o.has("b"):
						col++
					case c == '\t':
						col = col + 8 - col%8
					case c == '\b':
						if col > 0 {
							col--
						}
					case c == '\r':
						col = 0
					default:
						col++
					}
					if col > width {
						break
					}
					cut += adv
				}
				if cut >= len(l) {
					break
				}
				if cut == 0 {
					cut = 1
				}
				if o.has("s") {
					if sp := strings.LastIndexAny(l[:cut], " \t"); sp >= 0 {
						cut = sp + 1
					}
				}
				w.WriteString(l[:cut])
				w.WriteByte('\n')
				l = l[cut:]
			}
			w.WriteString(l)
			if nl {
				w.WriteByte('\n')
			}
		}
	})
}

// tabStops parses -t: one width, or a list of positions.
func tabStops(s string) (func(col int) int, error) {
	if s == "" {
		s = "8"
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	var stops []int
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || len(stops) > 0 && n <= stops[len(stops)-1] {
			return nil, fmt.Errorf("tab size contains invalid character(s): '%s'", s)
		}
		stops = append(stops, n)
	}
	if len(stops) == 1 {
		n := stops[0]
		return func(col int) int { return col + n - col%n }, nil
	}
	return func(col int) int {
		for _, st := range stops {
			if st > col {
				return st
			}
		}
		return col + 1
	}, nil
}

func expandCmd(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "i", vals: "t", long: map[string]bool{"initial": false, "tabs": true},
		alias: map[string]string{"initial": "i", "tabs": "t"}}, args)
	if !ok {
		return 1
	}
	next, err := tabStops(o.last("t", "8"))
	if err != nil {
		e.Errf("%s", err)
		return 1
	}
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	return e.Inputs(files, func(_ string, b []byte) {
		for _, l := range splitKeep(b) {
			col, lead := 0, true
			for _, r := range l {
				switch {
				case r == '\t' && (lead || !o.has("i")):
					n := next(col)
					w.WriteString(strings.Repeat(" ", n-col))
					col = n
				case r == '\n':
					w.WriteRune(r)
					col = 0
				default:
					if r != ' ' && r != '\t' {
						lead = false
					}
					w.WriteRune(r)
					col++
				}
			}
		}
	})
}

func unexpand(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "a", vals: "t", long: map[string]bool{"all": false, "first-only": false, "tabs": true},
		alias: map[string]string{"all": "a", "tabs": "t"}}, args)
	if !ok {
		return 1
	}
	size := 8
	if o.has("t") {
		n, err := strconv.Atoi(o.last("t", ""))
		if err != nil || n < 1 {
			e.Errf("tab size contains invalid character(s): '%s'", o.last("t", ""))
			return 1
		}
		size = n
	}
	all := (o.has("a") || o.has("t")) && !o.has("first-only")
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	return e.Inputs(files, func(_ string, b []byte) {
		for _, l := range splitKeep(b) {
			var out strings.Builder
			col, spaces, lead := 0, 0, true
			flush := func() {
				out.WriteString(strings.Repeat(" ", spaces))
				spaces = 0
			}
			for _, r := range l {
				switch {
				case r == ' ' && (lead || all):
					spaces++
					col++
					if col%size == 0 {
						if spaces > 1 {
							out.WriteByte('\t')
						} else {
							out.WriteByte(' ')
						}
						spaces = 0
					}
				case r == '\t' && (lead || all):
					spaces = 0
					out.WriteByte('\t')
					col = col + size - col%size
				default:
					flush()
					lead = false
					out.WriteRune(r)
					col++
				}
			}
			flush()
			w.WriteString(out.String())
		}
	})
}

func stringsCmd(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "afw", vals: "nt", numeric: 'n', long: map[string]bool{"all": false, "bytes": true, "radix": true,
		"print-file-name": false}, alias: map[string]string{"all": "a", "bytes": "n", "radix": "t", "print-file-name": "f"}}, args)
	if !ok {
		return 1
	}
	min, err := strconv.Atoi(o.last("n", "4"))
	if err != nil || min < 1 {
		e.Errf("invalid minimum string length %s", o.last("n", ""))
		return 1
	}
	radix := o.last("t", "")
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	return e.Inputs(files, func(name string, b []byte) {
		start := -1
		emit := func(end int) {
			if start >= 0 && end-start >= min {
				if o.has("f") {
					fmt.Fprintf(w, "%s: ", name)
				}
				switch radix {
				case "d":
					fmt.Fprintf(w, "%7d ", start)
				case "o":
					fmt.Fprintf(w, "%7o ", start)
				case "x":
					fmt.Fprintf(w, "%7x ", start)
				}
				w.Write(b[start:end])
				w.WriteByte('\n')
			}
			start = -1
		}
		for i, c := range b {
			if c >= 0x20 && c < 0x7f || c == '\t' {
				if start < 0 {
					start = i
				}
				continue
			}
			emit(i)
		}
		emit(len(b))
	})
}

// rng is a generator seeded from the run's journaled randomness.
func (e *Env) rng() *rand.Rand {
	var seed [16]byte
	e.Random(seed[:])
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:])))
}

func shuf(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "erz", vals: "ino", long: map[string]bool{"echo": false, "input-range": true, "head-count": true,
		"output": true, "repeat": false, "zero-terminated": false, "random-source": true},
		alias: map[string]string{"echo": "e", "input-range": "i", "head-count": "n", "output": "o", "repeat": "r", "zero-terminated": "z"}}, args)
	if !ok {
		return 1
	}
	var items []string
	sep := "\n"
	if o.has("z") {
		sep = "\x00"
	}
	switch {
	case o.has("e"):
		items = ops
	case o.has("i"):
		lo, hi, okr := strings.Cut(o.last("i", ""), "-")
		a, err1 := strconv.ParseInt(lo, 10, 64)
		b, err2 := strconv.ParseInt(hi, 10, 64)
		if !okr || err1 != nil || err2 != nil || b < a-1 {
			e.Errf("invalid input range: '%s'", o.last("i", ""))
			return 1
		}
		if !o.has("r") && b-a >= e.MaxBytes/8 {
			e.Errf("input range of %d numbers is larger than the limit MaxAllocBytes allows", b-a+1)
			return 1
		}
		if o.has("r") {
			n := int64(-1)
			if o.has("n") {
				n, _ = strconv.ParseInt(o.last("n", ""), 10, 64)
			}
			return e.shufRepeat(func(r *rand.Rand) string { return strconv.FormatInt(a+r.Int64N(b-a+1), 10) }, n, sep, b >= a)
		}
		for i := a; i <= b; i++ {
			items = append(items, strconv.FormatInt(i, 10))
		}
	default:
		f := "-"
		if len(ops) > 0 {
			f = ops[0]
		}
		data, err := e.ReadAll(f)
		if err != nil {
			e.FileErr(f, err)
			return 1
		}
		if o.has("z") {
			items = strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
			if len(data) == 0 {
				items = nil
			}
		} else {
			items = splitLines(data)
		}
	}
	n := int64(len(items))
	if o.has("n") {
		v, err := strconv.ParseInt(o.last("n", ""), 10, 64)
		if err != nil || v < 0 {
			e.Errf("invalid line count: '%s'", o.last("n", ""))
			return 1
		}
		if o.has("r") || v < n {
			n = v
		}
	} else if o.has("r") {
		n = -1
	}
	if o.has("r") {
		return e.shufRepeat(func(r *rand.Rand) string { return items[r.IntN(len(items))] }, n, sep, len(items) > 0)
	}
	r := e.rng()
	r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	out, closeOut, ok := e.output(o.last("o", ""))
	if !ok {
		return 1
	}
	defer closeOut()
	for _, it := range items[:n] {
		out.WriteString(it)
		out.WriteString(sep)
	}
	return 0
}

// shufRepeat writes n (forever when negative, until the run's output
// limit stops it) random picks.
func (e *Env) shufRepeat(pick func(*rand.Rand) string, n int64, sep string, any bool) int {
	if !any {
		if n != 0 {
			e.Errf("no lines to repeat")
			return 1
		}
		return 0
	}
	r := e.rng()
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	for i := int64(0); n < 0 || i < n; i++ {
		if i%4096 == 0 && e.Ctx.Err() != nil {
			return 1
		}
		w.WriteString(pick(r))
		if _, err := w.WriteString(sep); err != nil {
			return 1
		}
	}
	return 0
}

// output opens -o FILE (or stdout).
func (e *Env) output(name string) (*bufio.Writer, func(), bool) {
	if name == "" {
		w := bufio.NewWriter(e.Stdout)
		return w, func() { w.Flush() }, true
	}
	f, err := e.FS.Create(e.Ctx, e.Abs(name), false, false)
	if err != nil {
		e.FileErr(name, err)
		return nil, nil, false
	}
	w := bufio.NewWriter(f)
	return w, func() { w.Flush(); f.Close() }, true
}

func split(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "dxe", vals: "lbnaC", numeric: 'l', long: map[string]bool{"lines": true, "bytes": true,
		"number": true, "suffix-length": true, "numeric-suffixes": false, "hex-suffixes": false, "additional-suffix": true,
		"line-bytes": true, "elide-empty-files": false, "verbose": false},
		alias: map[string]string{"lines": "l", "bytes": "b", "number": "n", "suffix-length": "a", "numeric-suffixes": "d",
			"hex-suffixes": "x", "line-bytes": "C", "elide-empty-files": "e"}}, args)
	if !ok {
		return 1
	}
	in, prefix := "-", "x"
	if len(ops) > 0 {
		in = ops[0]
	}
	if len(ops) > 1 {
		prefix = ops[1]
	}
	data, err := e.ReadAll(in)
	if err != nil {
		e.FileErr(in, err)
		return 1
	}
	suffixLen := 2
	if o.has("a") {
		suffixLen, err = strconv.Atoi(o.last("a", ""))
		if err != nil || suffixLen < 1 {
			e.Errf("invalid suffix length: '%s'", o.last("a", ""))
			return 1
		}
	}
	var chunks [][]byte
	switch {
	case o.has("b"):
		size, err := parseSize(o.last("b", ""))
		if err != nil || size < 1 {
			e.Errf("invalid number of bytes: '%s'", o.last("b", ""))
			return 1
		}
		for len(data) > 0 {
			n := min(int64(len(data)), size)
			chunks = append(chunks, data[:n])
			data = data[n:]
		}
	case o.has("n"):
		k, err := strconv.Atoi(strings.TrimPrefix(o.last("n", ""), "l/"))
		if err != nil || k < 1 {
			e.Errf("invalid number of chunks: '%s'", o.last("n", ""))
			return 1
		}
		byLine := strings.HasPrefix(o.last("n", ""), "l/")
		total := len(data)
		start := 0
		for i := 0; i < k; i++ {
			end := (i + 1) * (total / k) // GNU: equal chunks, the last takes the rest
			if i == k-1 {
				end = total
			}
			if byLine && end < total {
				if nl := strings.IndexByte(string(data[end:]), '\n'); nl >= 0 {
					end += nl + 1
				} else {
					end = total
				}
			}
			if end < start {
				end = start
			}
			chunks = append(chunks, data[start:end])
			start = end
		}
	default:
		n, err := strconv.Atoi(o.last("l", "1000"))
		if err != nil || n < 1 {
			e.Errf("invalid number of lines: '%s'", o.last("l", ""))
			return 1
		}
		lines := splitKeep(data)
		for i := 0; i < len(lines); i += n {
			chunks = append(chunks, []byte(strings.Join(lines[i:min(i+n, len(lines))], "")))
		}
	}
	suffix := o.last("additional-suffix", "")
	for i, c := range chunks {
		if o.has("e") && len(c) == 0 {
			continue
		}
		name, ok := splitName(i, suffixLen, o.has("d"), o.has("x"))
		if !ok {
			e.Errf("output file suffixes exhausted")
			return 1
		}
		if err := e.FS.WriteFile(e.Ctx, e.Abs(prefix+name+suffix), c, "w"); err != nil {
			e.FileErr(prefix+name+suffix, err)
			return 1
		}
		if o.has("verbose") {
			fmt.Fprintf(e.Stdout, "creating file '%s'\n", prefix+name+suffix)
		}
	}
	return 0
}

func splitName(i, n int, digits, hex bool) (string, bool) {
	base, alpha := 26, "abcdefghijklmnopqrstuvwxyz"
	if digits {
		base, alpha = 10, "0123456789"
	} else if hex {
		base, alpha = 16, "0123456789abcdef"
	}
	b := make([]byte, n)
	for k := n - 1; k >= 0; k-- {
		b[k] = alpha[i%base]
		i /= base
	}
	return string(b), i == 0
}

func truncate(e *Env, args []string) int {
	o, files, ok := e.parse(&flagSpec{bools: "co", vals: "sr", long: map[string]bool{"no-create": false, "size": true, "reference": true, "io-blocks": false},
		alias: map[string]string{"no-create": "c", "size": "s", "reference": "r", "io-blocks": "o"}}, args)
	if !ok {
		return 1
	}
	if !o.has("s") && !o.has("r") {
		e.Errf("you must specify either '--size' or '--reference'")
		return 1
	}
	if len(files) == 0 {
		e.Errf("missing file operand")
		return 1
	}
	spec := o.last("s", "")
	op := byte(0)
	if spec != "" && strings.IndexByte("+-<>/%", spec[0]) >= 0 {
		op, spec = spec[0], spec[1:]
	}
	var size int64
	if o.has("r") {
		fi, err := e.FS.Stat(e.Ctx, e.Abs(o.last("r", "")))
		if err != nil {
			e.Errf("cannot stat '%s': %s", o.last("r", ""), textOf(err))
			return 1
		}
		size = fi.FSize
	}
	if o.has("s") {
		n, err := parseSize(spec)
		if err != nil {
			e.Errf("Invalid number: '%s'", o.last("s", ""))
			return 1
		}
		if o.has("r") && op == 0 {
			op = '+'
		}
		if o.has("r") {
			size += n
		} else {
			size = n
		}
		if (op == '/' || op == '%') && n == 0 {
			e.Errf("division by zero")
			return 1
		}
	}
	status := 0
	for _, f := range files {
		ap := e.Abs(f)
		cur := int64(0)
		fi, err := e.FS.Stat(e.Ctx, ap)
		switch {
		case err == nil && fi.Kind == "dir":
			e.Errf("cannot open '%s' for writing: Is a directory", f)
			status = 1
			continue
		case err == nil:
			cur = fi.FSize
		case codeOf(err) == "ENOENT" && o.has("c"):
			continue
		case codeOf(err) != "ENOENT":
			e.Errf("cannot open '%s' for writing: %s", f, textOf(err))
			status = 1
			continue
		}
		want := size
		n := size
		switch op {
		case '+':
			want = cur + n
		case '-':
			want = max(0, cur-n)
		case '<':
			want = min(cur, n)
		case '>':
			want = max(cur, n)
		case '/':
			want = cur / n * n
		case '%':
			want = (cur + n - 1) / n * n
		}
		if want > e.MaxBytes && want > cur {
			e.Errf("cannot extend '%s' to %d bytes: larger than the limit MaxAllocBytes (%d)", f, want, e.MaxBytes)
			status = 1
			continue
		}
		if err := e.resize(ap, cur, want, fi == nil); err != nil {
			e.Errf("failed to truncate '%s' at %d bytes: %s", f, want, textOf(err))
			status = 1
		}
	}
	return status
}

// resize makes p want bytes long: a prefix of its content, or the content
// followed by zeros.
func (e *Env) resize(p string, cur, want int64, missing bool) error {
	if want == cur && !missing {
		return nil
	}
	var data []byte
	if cur > 0 {
		keep := min(cur, want)
		b, err := e.FS.Pread(e.Ctx, p, 0, int(keep))
		if err != nil {
			return err
		}
		data = b
	}
	if int64(len(data)) < want {
		data = append(data, make([]byte, want-int64(len(data)))...)
	}
	return e.FS.WriteFile(e.Ctx, p, data[:want], "w")
}

func numfmt(e *Env, args []string) int {
	o, ops, ok := e.parse(&flagSpec{bools: "z", vals: "d", long: map[string]bool{"from": true, "to": true, "suffix": true, "padding": true,
		"field": true, "delimiter": true, "header": false, "round": true, "format": true, "invalid": true, "to-unit": true, "from-unit": true, "grouping": false},
		alias: map[string]string{"delimiter": "d"}}, args)
	if !ok {
		return 1
	}
	from, to := o.last("from", "none"), o.last("to", "none")
	suffix := o.last("suffix", "")
	pad, _ := strconv.Atoi(o.last("padding", "0"))
	fieldN, _ := strconv.Atoi(o.last("field", "1"))
	if fieldN < 1 {
		fieldN = 1
	}
	delim := o.last("d", "")
	fromUnit, _ := strconv.ParseFloat(o.last("from-unit", "1"), 64)
	toUnit, _ := strconv.ParseFloat(o.last("to-unit", "1"), 64)
	round := o.last("round", "from-zero")
	convert := func(s string) (string, bool) {
		num := strings.TrimSuffix(s, suffix)
		v, ok := parseUnits(num, from)
		if !ok {
			return "", false
		}
		v = v * fromUnit / toUnit
		out := formatUnits(v, to, round)
		if f := o.last("format", ""); f != "" && to == "none" {
			out = Sprintf(f, []string{out})
			return out, true
		}
		out += suffix
		if pad > 0 && len(out) < pad {
			out = strings.Repeat(" ", pad-len(out)) + out
		} else if pad < 0 && len(out) < -pad {
			out += strings.Repeat(" ", -pad-len(out))
		}
		return out, true
	}
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	status := 0
	line := func(l string) {
		var fields []string
		if delim != "" {
			fields = strings.Split(l, delim[:1])
		} else {
			fields = strings.Fields(l)
		}
		if fieldN > len(fields) {
			w.WriteString(l + "\n")
			return
		}
		c, ok := convert(fields[fieldN-1])
		if !ok {
			w.Flush()
			fmt.Fprintf(e.Stderr, "numfmt: invalid number: '%s'\n", fields[fieldN-1])
			status = 2
			return
		}
		if delim == "" && len(fields) == 1 {
			w.WriteString(c + "\n")
			return
		}
		if delim == "" && len(c) < len(fields[fieldN-1]) {
			c = strings.Repeat(" ", len(fields[fieldN-1])-len(c)) + c
		}
		fields[fieldN-1] = c
		sep := " "
		if delim != "" {
			sep = delim[:1]
		}
		w.WriteString(strings.Join(fields, sep) + "\n")
	}
	if len(ops) > 0 {
		for _, a := range ops {
			c, ok := convert(a)
			if !ok {
				w.Flush()
				fmt.Fprintf(e.Stderr, "numfmt: invalid number: '%s'\n", a)
				return 2
			}
			w.WriteString(c + "\n")
		}
		return 0
	}
	b, err := e.ReadAll("-")
	if err != nil {
		e.FileErr("-", err)
		return 1
	}
	lines := splitLines(b)
	if o.has("header") && len(lines) > 0 {
		w.WriteString(lines[0] + "\n")
		lines = lines[1:]
	}
	for _, l := range lines {
		line(l)
	}
	return status
}

var siUnits = "KMGTPEZY"

func parseUnits(s, from string) (float64, bool) {
	if s == "" {
		return 0, false
	}
	mult := 1.0
	last := s[len(s)-1]
	if from != "none" {
		base := 1000.0
		if from == "iec" || from == "iec-i" || from == "auto" && strings.HasSuffix(s, "i") {
			base = 1024
		}
		t := strings.TrimSuffix(s, "i")
		if t != s && from != "iec-i" && from != "auto" {
			return 0, false
		}
		if len(t) > 0 {
			if k := strings.IndexByte(siUnits, upper(t[len(t)-1])); k >= 0 {
				for i := 0; i <= k; i++ {
					mult *= base
				}
				s = t[:len(t)-1]
			}
		}
	} else if last < '0' || last > '9' {
		if last != '.' {
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return v * mult, true
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}

func formatUnits(v float64, to, round string) string {
	rnd := func(x float64) float64 {
		switch round {
		case "up":
			return ceil(x)
		case "down":
			return floor(x)
		case "towards-zero":
			if x < 0 {
				return ceil(x)
			}
			return floor(x)
		case "nearest":
			return floor(x + 0.5)
		}
		if x < 0 {
			return -ceil(-x)
		}
		return ceil(x)
	}
	if to == "none" {
		return strconv.FormatFloat(rnd(v), 'f', -1, 64)
	}
	base := 1000.0
	if to == "iec" || to == "iec-i" {
		base = 1024
	}
	neg := v < 0
	if neg {
		v = -v
	}
	unit := -1
	for v >= base && unit < len(siUnits)-1 {
		v /= base
		unit++
	}
	var s string
	if unit < 0 {
		s = strconv.FormatFloat(rnd(v), 'f', -1, 64)
	} else {
		if v < 10 {
			v = rnd(v*10) / 10
			if v >= 10 {
				s = strconv.FormatFloat(v, 'f', 0, 64)
			} else {
				s = strconv.FormatFloat(v, 'f', 1, 64)
			}
		} else {
			v = rnd(v)
			if v >= base {
				v /= base
				unit++
				s = strconv.FormatFloat(v, 'f', 1, 64)
			} else {
				s = strconv.FormatFloat(v, 'f', 0, 64)
			}
		}
		u := string(siUnits[unit])
		if to == "iec-i" {
			u += "i"
		}
		s += u
	}
	if neg {
		s = "-" + s
	}
	return s
}

func ceil(x float64) float64 {
	f := floor(x)
	if f < x {
		return f + 1
	}
	return f
}

func floor(x float64) float64 {
	if x >= 0 {
		return float64(int64(x))
	}
	t := float64(int64(x))
	if t > x {
		return t - 1
	}
	return t
}

// factor prints the prime factors of each number (math/big, so any size;
// trial division up to a bound, then a probable-prime test and Pollard's
// rho, each bounded by the run's context).
func factor(e *Env, args []string) int {
	nums := args[1:]
	if len(nums) == 0 {
		b, err := e.ReadAll("-")
		if err != nil {
			e.FileErr("-", err)
			return 1
		}
		nums = strings.Fields(string(b))
	}
	w := bufio.NewWriter(e.Stdout)
	defer w.Flush()
	status := 0
	for _, s := range nums {
		n, ok := new(big.Int).SetString(strings.TrimPrefix(s, "+"), 10)
		if !ok || n.Sign() < 0 || !utf8.ValidString(s) {
			w.Flush()
			e.Errf("'%s' is not a valid positive integer", s)
			status = 1
			continue
		}
		if n.BitLen() > 200 {
			w.Flush()
			e.Errf("'%s' is too large (at most 200 bits)", s)
			status = 1
			continue
		}
		fs := factorize(e, n)
		if fs == nil {
			return 1
		}
		w.WriteString(n.String() + ":")
		for _, f := range fs {
			w.WriteString(" " + f.String())
		}
		w.WriteByte('\n')
	}
	return status
}

func factorize(e *Env, n *big.Int) []*big.Int {
	var out []*big.Int
	n = new(big.Int).Set(n)
	if n.Cmp(big.NewInt(1)) <= 0 {
		return []*big.Int{}
	}
	for _, p := range []int64{2, 3, 5} {
		bp := big.NewInt(p)
		for new(big.Int).Mod(n, bp).Sign() == 0 {
			out = append(out, bp)
			n.Div(n, bp)
		}
	}
	// trial division by 6k±1 up to 10^5
	for k := int64(7); k < 100000 && n.Cmp(big.NewInt(1)) > 0; k += 2 {
		bk := big.NewInt(k)
		if new(big.Int).Mul(bk, bk).Cmp(n) > 0 {
			break
		}
		for new(big.Int).Mod(n, bk).Sign() == 0 {
			out = append(out, bk)
			n.Div(n, bk)
		}
	}
	var rec func(m *big.Int) bool
	rec = func(m *big.Int) bool {
		if m.Cmp(big.NewInt(1)) == 0 {
			return true
		}
		if m.ProbablyPrime(20) {
			out = append(out, new(big.Int).Set(m))
			return true
		}
		d := rho(e, m)
		if d == nil {
			return false
		}
		return rec(d) && rec(new(big.Int).Div(m, d))
	}
	if !rec(n) {
		return nil
	}
	sortBig(out)
	return out
}

// rho finds a non-trivial factor of composite m (Pollard-Brent).
func rho(e *Env, m *big.Int) *big.Int {
	one := big.NewInt(1)
	for c := int64(1); ; c++ {
		x, y, d := big.NewInt(2), big.NewInt(2), big.NewInt(1)
		bc := big.NewInt(c)
		f := func(v *big.Int) { v.Mul(v, v).Add(v, bc).Mod(v, m) }
		for i := 0; d.Cmp(one) == 0; i++ {
			if i%1024 == 0 && e.Ctx.Err() != nil {
				return nil
			}
			f(x)
			f(y)
			f(y)
			d.Sub(x, y).Abs(d).GCD(nil, nil, d, m)
		}
		if d.Cmp(m) != 0 {
			return d
		}
	}
}

func sortBig(a []*big.Int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j].Cmp(a[j-1]) < 0; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
